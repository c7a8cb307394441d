import Testing
@testable import QixDynamics

@Suite struct PushBehaviorTests {
    private func pushed(_ mode: PushBehavior.Mode, density: Double, frames: Int) -> DynamicItem {
        let a = Harness.box(at: .zero)
        let animator = DynamicAnimator()
        let push = PushBehavior(items: [a], mode: mode)
        push.setAngle(0, magnitude: 1)
        animator.addBehavior(push)
        let p = Harness.undamped([a])
        p.density = density
        animator.addBehavior(p)
        Harness.run(animator, frames: frames)
        return a
    }

    @Test func instantaneousPushAddsOneHundredPointsPerSecond() {
        // Tolerance 1e-9: one impulse, exact arithmetic apart from rounding.
        #expect(abs(pushed(.instantaneous, density: 1, frames: 30).velocity.x - 100) < 1e-9)
        #expect(abs(pushed(.instantaneous, density: 2, frames: 30).velocity.x - 50) < 1e-9)
    }

    @Test func continuousPushAcceleratesAtOneHundredPointsPerSecondSquared() {
        // After exactly 1 s (60 frames): 100 points/s, or 50 for double mass (1e-6 relative).
        #expect(abs(pushed(.continuous, density: 1, frames: 60).velocity.x - 100) < 1e-6 * 100)
        #expect(abs(pushed(.continuous, density: 2, frames: 60).velocity.x - 50) < 1e-6 * 50)
    }

    /// Items added later are pushed (at their centre); removed ones no longer are, and their
    /// offsets go with them.
    @Test func itemsCanBeAddedAndRemoved() {
        let a = Harness.box("a", at: .zero), b = Harness.box("b", at: Vector2(300, 0))
        let animator = DynamicAnimator()
        let push = PushBehavior(items: [a], mode: .continuous)
        push.setAngle(0, magnitude: 1)
        push.setTargetOffsetFromCenter(Vector2(0, 50), for: a)
        animator.addBehavior(push)
        animator.addBehavior(Harness.undamped([a, b]))
        push.addItem(b)
        push.removeItem(a)
        #expect(push.items.count == 1 && push.targetOffsetFromCenter(for: b) == .zero)
        Harness.run(animator, frames: 60)
        #expect(a.velocity == .zero && abs(b.velocity.x - 100) < 1e-6 * 100 && abs(b.angularVelocity) < 1e-9)
    }

    @Test func offsetPushSpinsTheItem() {
        let a = Harness.box(at: .zero)
        let animator = DynamicAnimator()
        let push = PushBehavior(items: [a], mode: .instantaneous)
        push.setAngle(0, magnitude: 1)
        push.setTargetOffsetFromCenter(Vector2(0, 50), for: a)
        animator.addBehavior(push)
        animator.addBehavior(Harness.undamped([a]))
        Harness.run(animator, frames: 2)
        // Torque arm 50 below the centre pushing +x turns the box toward -angle: w = r x P / I.
        let inertia: Double = 20_000.0 / 12  // m (w^2 + h^2) / 12 with m = 1
        #expect(abs(a.angularVelocity - (-50 * 100 / inertia)) < 1e-9)
    }
}
