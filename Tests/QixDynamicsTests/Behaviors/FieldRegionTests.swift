import Testing
@testable import QixDynamics

@Suite struct FieldRegionTests {
    /// A disc of radius 10 and a 30x6 rectangle, both about the field's position.
    private let disc = FieldRegion.circle(radius: 10)
    private let bar = FieldRegion.rectangle(size: Vector2(30, 6))
    /// In both, in the bar only, in the disc only, in neither.
    private let both = Vector2(0, 0), barOnly = Vector2(12, 0), discOnly = Vector2(0, 8), neither = Vector2(20, 20)

    private func truth(_ region: FieldRegion) -> [Bool] { [both, barOnly, discOnly, neither].map(region.contains) }

    @Test func primitivesHoldTheirPoints() {
        #expect(truth(disc) == [true, false, true, false])
        #expect(truth(bar) == [true, true, false, false])
        #expect(truth(.infinite) == [true, true, true, true])
    }

    @Test func unionIntersectionAndDifferenceFollowTheirTruthTables() {
        #expect(truth(disc.byUnion(with: bar)) == [true, true, true, false])
        #expect(truth(disc.byIntersection(with: bar)) == [true, false, false, false])
        // UIKit: "subtracting the specified region from the current region".
        #expect(truth(disc.byDifference(from: bar)) == [false, false, true, false])
        #expect(truth(bar.byDifference(from: disc)) == [false, true, false, false])
    }

    @Test func inverseHoldsTheOtherPoints() {
        #expect(truth(disc.inverse()) == [false, true, false, true])
        #expect(truth(FieldRegion.infinite.inverse()) == [false, false, false, false])
        #expect(truth(disc.inverse().inverse()) == truth(disc))
        // De Morgan: the inverse of a union is the intersection of the inverses.
        #expect(truth(disc.byUnion(with: bar).inverse()) == truth(disc.inverse().byIntersection(with: bar.inverse())))
    }

    @Test func edgesCountAsInside() {
        #expect(disc.contains(Vector2(10, 0)) && bar.contains(Vector2(15, 3)))
        #expect(!disc.inverse().contains(Vector2(0, -10)))
    }

    /// A field acts only inside its region: a linear gravity field in a ring (a disc of 150
    /// points minus a disc of 50) moves the item at 100 points from the centre, not the one at 0.
    @Test func aFieldActsOnlyInsideAComposedRegion() {
        let inside = Harness.box("in", at: Vector2(100, 0), size: Vector2(10, 10))
        let middle = Harness.box("mid", at: Vector2(0, 0), size: Vector2(10, 10))
        let animator = DynamicAnimator()
        let field = FieldBehavior(kind: .linearGravity, items: [inside, middle])
        field.direction = Vector2(0, 1)
        field.region = FieldRegion.circle(radius: 150).byDifference(from: .circle(radius: 50))
        animator.addBehavior(field)
        Harness.run(animator, frames: 6)
        #expect(inside.velocity.y > 50)
        #expect(middle.velocity == .zero && middle.center == Vector2(0, 0))
    }
}
