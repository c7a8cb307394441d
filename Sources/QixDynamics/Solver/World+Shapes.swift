/// The bodies' shapes in the world's flat arrays. A body's shape in its own frame
/// (`vertices`, `normals`, from `Body.shapeStart`) is shared with the bodies added before it
/// that have the same one, bit for bit (the 5050 boxes of a pyramid have one shape: 0.65 MB
/// less); its shape placed in the world for a step has a range of its own (`Body.placedStart`
/// in `placedVertices` and `placedNormals`).
extension World {
    /// How many recent distinct shapes a new body's shape is compared with.
    static let sharedShapeReach = 4

    /// Where `geometry`'s vertices and normals start in `vertices` and `normals`: those of a
    /// recently added identical shape, else appended.
    func shapeStart(of geometry: ConvexGeometry) -> Int {
        let count = geometry.vertices.count
        for start in recentShapes where World.sameShape(geometry, vertices, normals, at: start, count: count) {
            return start
        }
        let start = vertices.count
        vertices.append(contentsOf: geometry.vertices)
        normals.append(contentsOf: geometry.normals)
        recentShapes.append(start)
        if recentShapes.count > World.sharedShapeReach { recentShapes.removeFirst() }
        return start
    }

    /// Whether `count` vertices and normals from `start` are `geometry`'s, bit for bit.
    private static func sameShape(_ geometry: ConvexGeometry, _ vertices: [Vector2], _ normals: [Vector2], at start: Int,
                                  count: Int) -> Bool {
        // A prefix of a longer stored shape serves as well: a body reads only its own range.
        if start + count > vertices.count { return false }
        for k in 0..<count {
            let v = vertices[start + k], n = normals[start + k], gv = geometry.vertices[k], gn = geometry.normals[k]
            if v.x.bitPattern != gv.x.bitPattern || v.y.bitPattern != gv.y.bitPattern
                || n.x.bitPattern != gn.x.bitPattern || n.y.bitPattern != gn.y.bitPattern { return false }
        }
        return true
    }
}
