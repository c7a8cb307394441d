import Testing
@testable import QixDynamics

@Suite struct CustomFieldTests {
    /// An undamped 100x100 item (mass 1) in a custom field of law `force`.
    private func setUp(at start: Vector2, _ force: @escaping FieldBehavior.Evaluation) -> (DynamicAnimator, DynamicItem, FieldBehavior) {
        let a = Harness.box("a", at: start)
        let animator = DynamicAnimator()
        let field = FieldBehavior(items: [a], evaluation: force)
        animator.addBehavior(Harness.undamped([a]))
        animator.addBehavior(field)
        return (animator, a, field)
    }

    /// A constant force of 2 push units on mass 1 is 200 points/s²: after 1 s, v = 200 points/s
    /// and y = 100 points (semi-implicit Euler at 1/480 s overshoots by a·h·t/2 = 0.2 points).
    @Test func aConstantForceGivesTheAnalyticTrajectory() {
        var seen: (mass: Double, deltaTime: Double)?
        let (animator, a, field) = setUp(at: .zero) { _, _, _, mass, _, dt in
            seen = (mass, dt)
            return Vector2(0, 2)
        }
        #expect(field.kind == .custom)
        Harness.run(animator, frames: 60)
        #expect(abs(a.velocity.y - 200) < 1e-9)
        #expect(abs(a.center.y - 100) < 0.5)
        #expect(a.center.x == 0)
        #expect(seen?.mass == 1 && seen?.deltaTime == 1.0 / 120)
    }

    /// A spring field F = −k x with 100 k / m = (2π)²: a period of 1 s. From 100 points out at
    /// rest, the item is near −100 after half a period and near +100 after one. Like every field,
    /// the force is taken at the start of each 1/120 s step and held over its sub-steps,
    /// which puts the item 3 points short at the half period and 6 at the full one; the built-in
    /// spring field of the same law (strength 100 k) gives the same path.
    @Test func aSpringLikeFieldOscillatesWithItsPeriod() {
        let k = Double.pi * Double.pi / 25
        let (animator, a, _) = setUp(at: Vector2(100, 0)) { field, p, _, _, _, _ in -k * (p - field.position) }
        let b = Harness.box("b", at: Vector2(100, 0))
        let spring = FieldBehavior(kind: .spring, items: [b])
        spring.strength = 100 * k
        animator.addBehavior(spring)
        animator.addBehavior(Harness.undamped([b]))
        var crossings = 0
        var last = a.center.x
        var half = 0.0, apart = 0.0
        Harness.run(animator, frames: 60) { frame, _ in
            if (a.center.x < 0) != (last < 0) { crossings += 1 }
            last = a.center.x
            if frame == 30 { half = a.center.x }
            apart = max(apart, abs(a.center.x - b.center.x))
        }
        #expect(crossings == 2)
        #expect(abs(half + 100) < 5)
        #expect(abs(a.center.x - 100) < 10)
        #expect(apart < 1e-9)
    }

    @Test func theRegionLimitsACustomField() {
        let (animator, a, field) = setUp(at: Vector2(100, 0)) { _, _, _, _, _, _ in Vector2(0, 1) }
        field.region = .circle(radius: 50)
        Harness.run(animator, frames: 30)
        #expect(a.velocity == .zero)
    }

    @Test func twoRunsGiveTheSameBits() {
        func run() -> (Vector2, Vector2) {
            let (animator, a, field) = setUp(at: Vector2(30, -40)) { _, p, v, mass, _, _ in
                Vector2(-0.01 * p.y, 0.013 * p.x) - (0.001 * mass) * v
            }
            field.position = Vector2(5, 7)
            Harness.run(animator, frames: 120)
            return (a.center, a.velocity)
        }
        let first = run(), second = run()
        #expect(first.0.x.bitPattern == second.0.x.bitPattern && first.0.y.bitPattern == second.0.y.bitPattern)
        #expect(first.1.x.bitPattern == second.1.x.bitPattern && first.1.y.bitPattern == second.1.y.bitPattern)
    }
}
