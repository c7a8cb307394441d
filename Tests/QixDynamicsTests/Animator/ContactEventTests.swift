import Testing
@testable import QixDynamics

/// `contactBegan` and `contactEnded` come in exact pairs, also when the last touching contact of
/// the world ends, and a began contact says where the shapes touch.
@Suite struct ContactEventTests {
    /// A box over the floor of a 400x400 world, falling under gravity with `elasticity`.
    private func fallingBox(elasticity: Double) -> (DynamicAnimator, DynamicItem) {
        let box = Harness.box("box", at: Vector2(200, 100))
        let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 400, height: 400))
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        let properties = Harness.undamped([box])
        properties.elasticity = elasticity
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [box]))
        animator.addBehavior(properties)
        return (animator, box)
    }

    /// "b" for every contactBegan, "e" for every contactEnded.
    private func contactLetters(_ events: [AnimatorEvent]) -> String {
        String(events.compactMap { e -> Character? in
            switch e {
            case .contactBegan: return "b"
            case .contactEnded: return "e"
            default: return nil
            }
        })
    }

    @Test func aBouncingBoxAloneInTheWorldReportsEveryTouchAndRelease() {
        let (animator, _) = fallingBox(elasticity: 0.8)
        let letters = contactLetters(Harness.run(animator, frames: 240))
        // Alternating, starting with a touch: at least three bounces, each ended.
        #expect(letters.hasPrefix("bebebe"), "\(letters)")
        #expect(!letters.contains("bb") && !letters.contains("ee"), "\(letters)")
    }

    @Test func liftingTheLastRestingItemEndsItsContactAndLandingBeginsAnother() {
        let (animator, box) = fallingBox(elasticity: 0)
        Harness.run(animator, frames: 120)
        animator.addVelocity(Vector2(0, -800), angular: 0, to: box)
        let letters = contactLetters(Harness.run(animator, frames: 180))
        // Off the floor (ended), back on it (began), perhaps a few bounces, resting at the end.
        #expect(letters.hasPrefix("eb") && letters.hasSuffix("b"), "\(letters)")
        #expect(!letters.contains("bb") && !letters.contains("ee"), "\(letters)")
    }

    @Test func aBeganContactCarriesItsPointAndNormal() throws {
        let (animator, box) = fallingBox(elasticity: 0)
        var began: Contact?
        Harness.run(animator, frames: 120) { _, events in
            for e in events { if case .contactBegan(let c) = e, began == nil { began = c } }
        }
        let c = try #require(began)
        #expect(c.item === box && c.isBoundary && c.boundaryIdentifier == nil)
        let point = try #require(c.point), normal = try #require(c.normal)
        // On the floor (y = 400) under the box, the normal from the box toward the floor.
        #expect(abs(point.y - 400) < 3 && abs(point.x - 200) < 50)
        #expect(abs(normal.x) < 1e-9 && abs(normal.y - 1) < 1e-9)
    }

    @Test func endedContactsCarryNoPlace() {
        let (animator, box) = fallingBox(elasticity: 0)
        Harness.run(animator, frames: 120)
        animator.addVelocity(Vector2(0, -800), angular: 0, to: box)
        for e in Harness.run(animator, frames: 30) {
            if case .contactEnded(let c) = e { #expect(c.point == nil && c.normal == nil) }
        }
    }
}
