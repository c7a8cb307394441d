import Testing
@testable import QixDynamics

/// The world's body arrays: allocated once at a scene's size, and still growing geometrically
/// when bodies come a few at a time.
struct WorldTests {
    static let box = ConvexGeometry.polygon([Vector2(-5, -5), Vector2(5, -5), Vector2(5, 5), Vector2(-5, 5)])

    @Test("a reservation for a scene's bodies is exact: adding them allocates nothing more")
    func reservationIsExact() {
        let world = World()
        world.reserveBodies(500)
        let capacity = world.bodies.capacity
        #expect(capacity >= 501 && capacity < 600)
        for k in 0..<500 { _ = world.addBody(Self.box, origin: Vector2(Double(k), 0), angle: 0, density: 1, isStatic: false) }
        #expect(world.bodies.capacity == capacity)
    }

    @Test("bodies reserved and added one at a time reallocate a logarithmic number of times, not every time")
    func oneAtATimeGrowsGeometrically() {
        let world = World()
        var capacities: Set<Int> = []
        for k in 0..<2000 {
            world.reserveBodies(1)
            _ = world.addBody(Self.box, origin: Vector2(Double(k), 0), angle: 0, density: 1, isStatic: false)
            capacities.insert(world.bodies.capacity)
        }
        // 1.5x growth from 1 to 2001 is about 19 steps; an exact reservation each time would be 2000.
        #expect(capacities.count < 30, "\(capacities.count) capacities")
    }
}
