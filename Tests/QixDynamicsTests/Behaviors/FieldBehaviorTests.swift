import Testing
@testable import QixDynamics

@Suite struct FieldBehaviorTests {
    /// A charged, undamped 100x100 item (mass 1) moving at 200 points/s through a magnetic field
    /// that turns it at 2 rad/s: a circle of radius 100 points.
    private func orbit() -> (DynamicAnimator, DynamicItem) {
        let a = Harness.box("a", at: Vector2(0, 0))
        a.velocity = Vector2(200, 0)
        let animator = DynamicAnimator()
        let properties = Harness.undamped([a])
        properties.charge = 1
        let field = FieldBehavior(kind: .magnetic, items: [a])
        field.strength = 2
        animator.addBehavior(properties)
        animator.addBehavior(field)
        return (animator, a)
    }

    @Test func itemsCanBeAddedAndRemoved() {
        let a = Harness.box("a", at: .zero), b = Harness.box("b", at: Vector2(300, 0))
        let animator = DynamicAnimator()
        let field = FieldBehavior(kind: .linearGravity, items: [a])
        field.direction = Vector2(0, 1)
        animator.addBehavior(field)
        animator.addBehavior(Harness.undamped([a, b]))
        field.addItem(b)
        field.removeItem(a)
        Harness.run(animator, frames: 60)
        #expect(field.items.count == 1 && a.velocity == .zero && abs(b.velocity.y - 1000) < 1e-6)
    }

    @Test func aMagneticOrbitKeepsItsSpeedForTenSeconds() {
        let (animator, a) = orbit()
        var slowest = Double.infinity, fastest = 0.0
        Harness.run(animator, frames: 600) { _, _ in
            slowest = min(slowest, a.velocity.length)
            fastest = max(fastest, a.velocity.length)
        }
        #expect(fastest < 200 * 1.01 && slowest > 200 * 0.99, "speed \(slowest) ... \(fastest)")
    }

    @Test func aMagneticOrbitIsACircleOfSpeedOverTurnRate() {
        let (animator, a) = orbit()
        // v = (200, 0) turning clockwise on screen (toward -y): the centre is 100 points up.
        let centre = Vector2(0, -100)
        var farthest = 0.0
        Harness.run(animator, frames: 600) { _, _ in farthest = max(farthest, abs((a.center - centre).length - 100)) }
        #expect(farthest < 2, "radius off by \(farthest) points")
    }
}
