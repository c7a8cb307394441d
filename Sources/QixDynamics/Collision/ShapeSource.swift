/// Where the continuous stage reads the bodies' shapes: the world's flat vertex and normal arrays.
struct ShapeSource {
    let vertices: UnsafePointer<Vector2>
    let normals: UnsafePointer<Vector2>

    /// The core of `body` for the time of impact.
    func shape(_ body: UnsafePointer<Body>) -> TimeOfImpact.Shape {
        TimeOfImpact.Shape(vertices: vertices + body.pointee.shapeStart, normals: normals + body.pointee.shapeStart,
                           count: body.pointee.shapeCount, radius: body.pointee.radius)
    }
}
