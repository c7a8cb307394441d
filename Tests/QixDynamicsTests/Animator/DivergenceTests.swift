import Testing
@testable import QixDynamics

/// A run whose state leaves the representable range stops with a report instead of trapping or
/// going on with NaNs.
@Suite struct DivergenceTests {
    @Test func anOverflowingGravityReportsTheItemAndStops() throws {
        let a = Harness.box("a", at: Vector2(0, 0))
        let animator = DynamicAnimator()
        let gravity = GravityBehavior(items: [a])
        gravity.magnitude = 1e306  // 1e309 points/s^2: infinite
        animator.addBehavior(gravity)
        var reported: [Divergence] = []
        for _ in 0..<10 {
            for e in animator.advance(by: 1.0 / 60) { if case .diverged(let d) = e { reported.append(d) } }
        }
        #expect(reported.count == 1)
        let d = try #require(animator.divergence)
        #expect(d.item === a && reported.first == d)
        #expect(d.time == PhysicsConstants.stepDuration)
        // No step runs once it diverged.
        #expect(animator.elapsedTime == PhysicsConstants.stepDuration)
    }

    @Test func anItemPlacedAtNaNIsReportedNotTrapped() throws {
        let a = Harness.box("a", at: Vector2(.nan, 10))
        let b = Harness.box("b", at: Vector2(0, 300))
        let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 400, height: 400))
        let collision = CollisionBehavior(items: [a, b])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [a, b]))
        Harness.run(animator, frames: 3)
        let d = try #require(animator.divergence)
        #expect(d.item === a && d.quantity == .position && d.value.isNaN)
        #expect(d.reason == "position is not a number")
    }

    @Test func aFarAwayItemIsReportedWithItsBound() throws {
        let a = Harness.box("a", at: Vector2(0, 2e9))
        let animator = DynamicAnimator()
        animator.addBehavior(GravityBehavior(items: [a]))
        Harness.run(animator, frames: 1)
        let d = try #require(animator.divergence)
        #expect(d.quantity == .position && d.value > 2e9 - 1)
        #expect(d.reason.hasSuffix("points is beyond 1e9"))
    }

    @Test func anOverflowingSpeedIsClampedAlongItsDirection() {
        // Density 1e-300: a push of 1 gives 2.4e299 points/s in a sub-step, whose square overflows.
        let a = Harness.box("a", at: Vector2(0, 0))
        let animator = DynamicAnimator()
        let properties = Harness.undamped([a])
        properties.density = 1e-300
        let push = PushBehavior(items: [a], mode: .continuous)
        push.magnitude = 1
        animator.addBehavior(properties)
        animator.addBehavior(push)
        Harness.run(animator, frames: 1)
        // Along the push, at the limit to rounding: the direction is the velocity scaled by
        // 2^-600 and normalized, which lands within an ulp or two of unit length (exactly at
        // 6 sub-steps, 1 ulp under at 5), so the speed is 40 000 to 1e-15.
        #expect(a.velocity.y == 0)
        #expect(abs(a.velocity.x - PhysicsConstants.maxLinearSpeed) <= 1e-15 * PhysicsConstants.maxLinearSpeed)
        #expect(animator.divergence == nil)
    }

    @Test func angularSpeedIsClampedToAQuarterTurnPerSubstep() {
        let a = Harness.box("a", at: Vector2(0, 0))
        let animator = DynamicAnimator()
        animator.addBehavior(Harness.undamped([a]))
        animator.addVelocity(.zero, angular: 1e7, to: a)
        Harness.run(animator, frames: 60)
        let limit = PhysicsConstants.maxRotation / (PhysicsConstants.stepDuration / 4)
        #expect(abs(a.angularVelocity) <= limit)
        #expect(a.angularVelocity > 0.99 * limit)
        #expect(animator.divergence == nil)
    }

    @Test func sinCosNeverTraps() {
        // Past 1e15 there is no meaningful answer: NaN, which the animator reports as a divergence.
        for x in [1e15, 1.4e19, -1.4e19, 1e300, -1e300, Double.greatestFiniteMagnitude, -Double.infinity] {
            let (s, c) = DeterministicMath.sinCos(x)
            #expect(s.isNaN && c.isNaN, "sinCos(\(x)) = (\(s), \(c))")
        }
        for x in [1e9, -1e9, 1e14, -9.9e14] {
            let (s, c) = DeterministicMath.sinCos(x)
            #expect(abs(s) <= 1.000001 && abs(c) <= 1.000001, "sinCos(\(x)) = (\(s), \(c))")
        }
        // The quadrant below 2^63 is the one an integer k gives (same bits as before).
        for x in [3.0, -3.0, 1e6 + 0.5, -1e6 - 0.25, 1e14] {
            let k = (x * DeterministicMath.twoOverPi).rounded(.toNearestOrEven)
            #expect(Int(k.truncatingRemainder(dividingBy: 4)) & 3 == Int(k) & 3)
        }
    }
}
