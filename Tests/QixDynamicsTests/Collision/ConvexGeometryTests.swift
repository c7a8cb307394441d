import Testing
@testable import QixDynamics

/// The extents that decide when a body counts as fast for continuous collision.
struct ConvexGeometryTests {
    @Test("inner radius: the distance to the nearest edge (a rectangle's half short side, a circle's radius)")
    func innerRadius() throws {
        #expect(try ConvexGeometry.make(.rectangle, size: Vector2(100, 50)).innerRadius == 25)
        #expect(try ConvexGeometry.make(.ellipse, size: Vector2(40, 40)).innerRadius == 20)
        let triangle = try ConvexGeometry.make(.path([Vector2(-30, -30), Vector2(30, -30), Vector2(0, 30)]), size: .zero)
        // The slanted edges lie 30 / sqrt(5) from the item's centre, the base 30.
        #expect(abs(triangle.innerRadius - 30 / 5.0.squareRoot()) < 1e-9, "\(triangle.innerRadius)")
        let ellipse = try ConvexGeometry.make(.ellipse, size: Vector2(80, 40))
        #expect(ellipse.innerRadius > 19 && ellipse.innerRadius <= 20, "\(ellipse.innerRadius)")
        #expect(ConvexGeometry.segment(Vector2(0, 0), Vector2(100, 0)).innerRadius == 0)
    }
}
