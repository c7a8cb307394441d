import Testing
@testable import QixDynamics

@Suite struct GravityBehaviorTests {
    @Test func freeFallFollowsHalfGTSquared() {
        let a = Harness.box(at: .zero)
        let animator = DynamicAnimator()
        animator.addBehavior(GravityBehavior(items: [a]))
        animator.addBehavior(Harness.undamped([a]))
        Harness.run(animator, frames: 60)
        // y = g t^2 / 2 = 500 points after 1 s; semi-implicit Euler at 1/480 s overshoots by g*h*t/2 ~ 1 pt.
        #expect(abs(a.center.y - 500) <= 0.005 * 500)
        #expect(abs(a.velocity.y - 1000) <= 1e-6 * 1000)
        #expect(a.center.x == 0)
    }

    @Test func gravityAtAnAngle() {
        let a = Harness.box(at: .zero)
        let animator = DynamicAnimator()
        let g = GravityBehavior(items: [a])
        g.setAngle(Double.pi / 6, magnitude: 0.5)
        animator.addBehavior(g)
        animator.addBehavior(Harness.undamped([a]))
        Harness.run(animator, frames: 60)
        // a = 500 points/s^2 at 30 degrees: after 1 s, velocity (433.0, 250.0), displacement half of that.
        #expect(abs(a.velocity.x - 500 * 0.8660254037844386) < 1e-6)
        #expect(abs(a.velocity.y - 250) < 1e-6)
        #expect(abs(a.center.x - 216.5) <= 0.005 * 216.5)
        #expect(abs(a.center.y - 125) <= 0.005 * 125)
    }

    @Test func lastGravityBehaviorWins() {
        let a = Harness.box(at: .zero)
        let animator = DynamicAnimator()
        animator.addBehavior(GravityBehavior(items: [a]))
        let up = GravityBehavior(items: [a])
        up.gravityDirection = Vector2(0, -1)
        animator.addBehavior(up)
        animator.addBehavior(Harness.undamped([a]))
        Harness.run(animator, frames: 60)
        #expect(abs(a.velocity.y + 1000) < 1e-6)
    }
}
