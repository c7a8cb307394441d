import Testing
@testable import QixDynamics

@Suite struct AttachmentBehaviorTests {
    /// Times at which x(t) crosses `level` upward, linearly interpolated.
    private func upCrossings(_ samples: [(Double, Double)], level: Double) -> [Double] {
        var out: [Double] = []
        for k in 1..<samples.count {
            let (t0, x0) = samples[k - 1], (t1, x1) = samples[k]
            if x0 < level && x1 >= level { out.append(t0 + (level - x0) / (x1 - x0) * (t1 - t0)) }
        }
        return out
    }

    @Test func undampedSpringPeriodIsOneOverFrequency() {
        let a = Harness.box(at: Vector2(150, 0))
        let animator = DynamicAnimator()
        let spring = AttachmentBehavior(item: a, attachedToAnchor: .zero)
        spring.length = 100
        spring.frequency = 1.5
        animator.addBehavior(spring)
        animator.addBehavior(Harness.undamped([a]))
        var samples: [(Double, Double)] = []
        Harness.run(animator, frames: 240, frameRate: 120) { f, _ in samples.append((Double(f) / 120, a.center.x)) }
        let crossings = upCrossings(samples, level: 100)
        #expect(crossings.count >= 3)
        let period = (crossings[crossings.count - 1] - crossings[0]) / Double(crossings.count - 1)
        // 1 % tolerance: implicit soft springs lose a little phase.
        #expect(abs(period - 1 / 1.5) <= 0.01 / 1.5)
    }

    @Test func criticalDampingDoesNotOvershoot() {
        let a = Harness.box(at: Vector2(200, 0))
        let animator = DynamicAnimator()
        let spring = AttachmentBehavior(item: a, attachedToAnchor: .zero)
        spring.length = 100
        spring.frequency = 2
        spring.damping = 1
        animator.addBehavior(spring)
        animator.addBehavior(Harness.undamped([a]))
        var lowest = Double.infinity
        Harness.run(animator, frames: 120) { _, _ in lowest = min(lowest, a.center.x) }
        // Never below the rest length by more than 0.01 point, and settled within 0.5 point after 2 s.
        #expect(lowest >= 100 - 0.01)
        #expect(abs(a.center.x - 100) < 0.5)
    }

    @Test func rigidPendulumPeriod() {
        let length = 200.0, theta = 0.1
        let sc = DeterministicMath.sinCos(theta)
        let bob = Harness.box(at: Vector2(length * sc.sin, length * sc.cos), size: Vector2(20, 20), shape: .ellipse)
        let animator = DynamicAnimator()
        animator.addBehavior(AttachmentBehavior(item: bob, attachedToAnchor: .zero))
        animator.addBehavior(GravityBehavior(items: [bob]))
        animator.addBehavior(Harness.undamped([bob]))
        var samples: [(Double, Double)] = []
        var maxStretch = 0.0
        Harness.run(animator, frames: 6 * 120, frameRate: 120) { f, _ in
            samples.append((Double(f) / 120, bob.center.x))
            maxStretch = max(maxStretch, abs(bob.center.length - length))
        }
        let crossings = upCrossings(samples, level: 0)
        let period = (crossings[crossings.count - 1] - crossings[0]) / Double(crossings.count - 1)
        let expected = 2 * Double.pi * (length / 1000).squareRoot() * (1 + theta * theta / 16)
        // 1 % on the period; the rod keeps its length within 0.5 point.
        #expect(abs(period - expected) <= 0.01 * expected)
        #expect(maxStretch < 0.5)
    }

    @Test func ropeHoldsItsLengthWhileDragged() {
        let a = Harness.box("a", at: Vector2(0, 0))
        let b = Harness.box("b", at: Vector2(200, 0))
        let animator = DynamicAnimator()
        animator.addBehavior(AttachmentBehavior.limitAttachment(with: a, attachedTo: b))
        let drag = AttachmentBehavior(item: a, attachedToAnchor: a.center)
        animator.addBehavior(drag)
        var worst = 0.0
        Harness.run(animator, frames: 120) { f, _ in
            drag.anchorPoint = Vector2(-3 * Double(f), 0.5 * Double(f))
            worst = max(worst, (b.center - a.center).length)
        }
        // Dragged 360 points away: b follows, the rope stays within 3 % of 200.
        #expect(b.center.x < 0)
        #expect(worst <= 200 * 1.03)
    }

    @Test func pinKeepsTheSharedPoint() {
        let a = Harness.box(at: Vector2(50, 0))
        let animator = DynamicAnimator()
        animator.addBehavior(AttachmentBehavior.pinAttachment(with: a, attachmentAnchor: .zero))
        animator.addBehavior(GravityBehavior(items: [a]))
        var lowest = 0.0
        var worstGap = 0.0
        Harness.run(animator, frames: 120) { _, _ in
            lowest = max(lowest, a.center.y)
            worstGap = max(worstGap, (a.center + Rotation(angle: a.angle).rotate(Vector2(-50, 0))).length)
        }
        // The item's left edge midpoint stays on the pin (0.5 point) while it swings through the bottom.
        #expect(worstGap < 0.5)
        #expect(lowest > 45)
    }

    @Test func fixedAttachmentHoldsAngle() {
        let a = Harness.box(at: Vector2(50, 0))
        let animator = DynamicAnimator()
        animator.addBehavior(AttachmentBehavior.fixedAttachment(with: a, attachmentAnchor: .zero))
        animator.addBehavior(GravityBehavior(items: [a]))
        Harness.run(animator, frames: 120)
        // A weld sags only by its softness: under 1 point and 0.02 rad.
        #expect((a.center - Vector2(50, 0)).length < 1)
        #expect(abs(a.angle) < 0.02)
    }

    @Test func slidingStaysOnItsAxis() {
        let a = Harness.box(at: .zero)
        let animator = DynamicAnimator()
        animator.addBehavior(AttachmentBehavior.slidingAttachment(with: a, attachmentAnchor: .zero, axisOfTranslation: Vector2(1, 1)))
        animator.addBehavior(GravityBehavior(items: [a]))
        Harness.run(animator, frames: 60)
        // Slides down the 45-degree axis: x == y within 0.5 point, no rotation.
        #expect(a.center.y > 50)
        #expect(abs(a.center.x - a.center.y) < 0.5)
        #expect(abs(a.angle) < 1e-3)
    }

    @Test func pinFrictionTorqueIsInNewtonPoints() {
        // A 100x100 item of mass 1 (inertia 1 666.7 mass·points²) spinning at 1 rad/s on a pin at its
        // centre: 10 newton-points = 1 000 mass·points²/s² slow it by 0.6 rad/s².
        let a = Harness.box("a", at: Vector2(0, 0))
        a.angularVelocity = 1
        let animator = DynamicAnimator()
        let pin = AttachmentBehavior.pinAttachment(with: a, attachmentAnchor: Vector2(0, 0))
        pin.frictionTorque = 10
        animator.addBehavior(Harness.undamped([a]))
        animator.addBehavior(pin)
        Harness.run(animator, frames: 60)
        #expect(abs(a.angularVelocity - 0.4) < 0.01, "angular velocity \(a.angularVelocity)")
    }
}

