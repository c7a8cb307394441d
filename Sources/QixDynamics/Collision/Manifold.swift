/// One contact point found by the narrow phase, in world coordinates.
struct ManifoldPoint {
    /// Midpoint between the two surfaces.
    var point: Vector2
    /// Signed distance along the normal (negative = overlap).
    var separation: Double
    /// Feature key for matching this point with last step's point (warm starting).
    var id: UInt32
}

/// Up to two contact points and the normal pointing from shape A to shape B.
struct Manifold {
    var normal = Vector2.zero
    var count = 0
    var p0 = ManifoldPoint(point: .zero, separation: 0, id: 0)
    var p1 = ManifoldPoint(point: .zero, separation: 0, id: 0)

    mutating func append(_ p: ManifoldPoint) {
        if count == 0 { p0 = p } else { p1 = p }
        count += 1
    }
}

/// A convex shape placed in the world, read from the world's flat vertex arrays.
struct PlacedShape {
    var vertices: UnsafePointer<Vector2>
    var normals: UnsafePointer<Vector2>
    var count: Int
    var radius: Double
    var xf: Transform
}

/// The world's flat shape arrays seen through pointers for the narrow phase: shapes in body
/// frames, and the same shapes placed in the world for the current step.
struct ShapeArrays {
    var vertices: UnsafePointer<Vector2>
    var normals: UnsafePointer<Vector2>
    var placedVertices: UnsafePointer<Vector2>
    var placedNormals: UnsafePointer<Vector2>
}
