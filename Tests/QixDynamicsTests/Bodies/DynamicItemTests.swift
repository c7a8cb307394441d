import Testing
@testable import QixDynamics

/// An item's collision geometry, rebuilt from its shape and size when asked for.
struct DynamicItemTests {
    @Test("the geometry an item gives the world is the one its shape makes, and its vertex count matches",
          arguments: [ItemShape.rectangle, .ellipse, .path([Vector2(-30, -30), Vector2(30, -30), Vector2(0, 30)])])
    func geometryFollowsShape(_ shape: ItemShape) throws {
        for size in [Vector2(80, 40), Vector2(40, 40)] {
            let item = try DynamicItem(identifier: "a", center: .zero, size: size, shape: shape)
            let made = try ConvexGeometry.make(shape, size: size)
            #expect(item.geometry.vertices == made.vertices)
            #expect(item.geometry.normals == made.normals)
            #expect(item.geometry.radius == made.radius)
            #expect(item.vertexCount == made.vertices.count)
        }
    }

    @Test("a path that is not convex is refused when the item is made")
    func concavePathRefused() {
        let dart = ItemShape.path([Vector2(0, 0), Vector2(40, 0), Vector2(10, 10), Vector2(0, 40)])
        #expect(throws: DynamicsError.self) {
            try DynamicItem(identifier: "dart", center: .zero, size: Vector2(40, 40), shape: dart)
        }
    }
}
