import Testing
@testable import QixDynamics

@Suite struct DynamicItemBehaviorTests {
    @Test func allowsRotationFalseKeepsAngleExactlyZero() {
        let a = Harness.box("a", at: Vector2(200, 300))
        let b = Harness.box("b", at: Vector2(80, 240), size: Vector2(40, 40))
        b.velocity = Vector2(600, 0)
        let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 400, height: 600))
        animator.addBehavior(GravityBehavior(items: [a, b]))
        let collision = CollisionBehavior(items: [a, b])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        let push = PushBehavior(items: [a], mode: .instantaneous)
        push.setAngle(0, magnitude: 2)
        push.setTargetOffsetFromCenter(Vector2(0, 40), for: a)
        animator.addBehavior(push)
        let p = DynamicItemBehavior(items: [a])
        p.allowsRotation = false
        animator.addBehavior(p)
        Harness.run(animator, frames: 180) { _, _ in
            #expect(a.angle == 0)
            #expect(a.angularVelocity == 0)
        }
        #expect(b.angle != 0 || b.angularVelocity != 0 || b.center.y > 500)
    }

    /// An item added later takes the behavior's properties; a removed one goes back to the
    /// defaults (resistance 0.1).
    @Test func itemsCanBeAddedAndRemoved() {
        let a = Harness.box("a", at: .zero), b = Harness.box("b", at: Vector2(300, 0))
        a.velocity = Vector2(100, 0)
        b.velocity = Vector2(100, 0)
        let animator = DynamicAnimator()
        let p = Harness.undamped([a])
        animator.addBehavior(p)
        p.addItem(b)
        p.removeItem(a)
        Harness.run(animator, frames: 60)
        #expect(p.items.count == 1 && b.velocity.x == 100 && a.velocity.x == 100)
        animator.addBehavior(GravityBehavior(items: [a]))
        Harness.run(animator, frames: 60)
        #expect(a.velocity.x < 95 && b.velocity.x == 100)
    }

    @Test func addLinearVelocityAccumulates() {
        let a = Harness.box(at: .zero)
        let animator = DynamicAnimator()
        let p = Harness.undamped([a])
        animator.addBehavior(p)
        Harness.run(animator, frames: 1)
        p.addLinearVelocity(Vector2(30, 0), for: a)
        p.addLinearVelocity(Vector2(20, 0), for: a)
        p.addAngularVelocity(1, for: a)
        Harness.run(animator, frames: 60)
        #expect(abs(a.velocity.x - 50) < 1e-9)
        #expect(abs(a.center.x - 50) < 1e-6)
        #expect(abs(a.angle - 1) < 1e-9)
    }

    @Test func resistanceDecaysVelocity() {
        let a = Harness.box(at: .zero)
        a.velocity = Vector2(100, 0)
        let animator = DynamicAnimator()
        let p = DynamicItemBehavior(items: [a])
        p.resistance = 1
        animator.addBehavior(p)
        Harness.run(animator, frames: 60)
        // v = 100 / (1 + h)^(480) ~ 100 e^-1 after 1 s (0.2 %).
        #expect(abs(a.velocity.x - 100 * 0.36787944117144233) < 0.002 * 36.8)
    }
}
