/// The collision outline of a dynamic item, like UIKit's `collisionBoundsType`.
public enum ItemShape: Equatable, Sendable {
    /// The item's bounds rectangle (UIKit's default).
    case rectangle
    /// The ellipse inscribed in the bounds: an exact circle when width == height, otherwise a
    /// 24-sided polygon with its vertices on the ellipse.
    case ellipse
    /// A convex polygon relative to the item's centre (UIKit's `collisionBoundingPath`).
    case path([Vector2])
}

/// Why a convex path was rejected.
public enum ShapeError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Fewer than three usable vertices.
    case tooFewVertices
    /// The polygon is not convex (or has collinear / repeated points).
    case notConvex
    /// Zero area.
    case degenerate

    /// The one-line message the CLI prints.
    public var description: String {
        switch self {
        case .tooFewVertices: return "a path needs at least 3 distinct vertices"
        case .notConvex: return "the path is not convex"
        case .degenerate: return "the path has no area"
        }
    }
}

/// The solver's form of a shape: a convex polygon (vertices and outward normals, counter-clockwise
/// in the maths sense) or a circle (one vertex plus a radius), in the body's frame.
struct ConvexGeometry {
    var vertices: [Vector2]
    var normals: [Vector2]
    var radius: Double

    /// Builds the geometry of an item shape of the given size; throws for a path that is not a
    /// convex polygon.
    static func make(_ shape: ItemShape, size: Vector2) throws(ShapeError) -> ConvexGeometry {
        if case .path(let points) = shape { return try validatedPolygon(points) }
        return primitive(shape, size: size)
    }

    /// The geometry of a rectangle or an ellipse of the given size (a path as given: callers
    /// validate paths with `make`).
    static func primitive(_ shape: ItemShape, size: Vector2) -> ConvexGeometry {
        let hw = 0.5 * size.x
        let hh = 0.5 * size.y
        switch shape {
        case .rectangle:
            return polygon([Vector2(-hw, -hh), Vector2(hw, -hh), Vector2(hw, hh), Vector2(-hw, hh)])
        case .ellipse:
            if size.x == size.y { return ConvexGeometry(vertices: [.zero], normals: [.zero], radius: hw) }
            let n = 24
            var points: [Vector2] = []
            for i in 0..<n {
                let sc = DeterministicMath.sinCos(2 * Double.pi * Double(i) / Double(n))
                points.append(Vector2(hw * sc.cos, hh * sc.sin))
            }
            return polygon(points)
        case .path(let points):
            return polygon(points)
        }
    }

    /// A segment as a two-sided two-vertex polygon.
    static func segment(_ a: Vector2, _ b: Vector2) -> ConvexGeometry {
        let n = (b - a).normalized.rightPerpendicular
        return ConvexGeometry(vertices: [a, b], normals: [n, -n], radius: 0)
    }

    static func polygon(_ points: [Vector2]) -> ConvexGeometry {
        var normals: [Vector2] = []
        for i in 0..<points.count {
            let e = points[(i + 1) % points.count] - points[i]
            normals.append(e.normalized.rightPerpendicular)
        }
        return ConvexGeometry(vertices: points, normals: normals, radius: 0)
    }

    /// Checks convexity; accepts either winding (reverses a clockwise path).
    static func validatedPolygon(_ raw: [Vector2]) throws(ShapeError) -> ConvexGeometry {
        var points: [Vector2] = []
        for p in raw where points.last.map({ ($0 - p).lengthSquared > 1e-12 }) ?? true { points.append(p) }
        if points.count > 1, (points[0] - points[points.count - 1]).lengthSquared <= 1e-12 { points.removeLast() }
        if points.count < 3 { throw .tooFewVertices }
        var area = 0.0
        for i in 0..<points.count { area += points[i].cross(points[(i + 1) % points.count]) }
        if abs(area) < 1e-9 { throw .degenerate }
        if area < 0 { points.reverse() }
        let n = points.count
        for i in 0..<n {
            let e1 = points[(i + 1) % n] - points[i]
            let e2 = points[(i + 2) % n] - points[(i + 1) % n]
            if e1.cross(e2) <= 1e-12 { throw .notConvex }
        }
        return polygon(points)
    }

    /// Area, centroid and polar moment of area about the centroid (points^2, points, points^4).
    func areaProperties() -> (area: Double, centroid: Vector2, moment: Double) {
        if vertices.count == 1 {
            let area = Double.pi * radius * radius
            return (area, vertices[0], 0.5 * area * radius * radius)
        }
        var area = 0.0
        var center = Vector2.zero
        var moment = 0.0
        let origin = vertices[0]
        for i in 1..<(vertices.count - 1) {
            let e1 = vertices[i] - origin
            let e2 = vertices[i + 1] - origin
            let d = e1.cross(e2)
            let triangleArea = 0.5 * d
            area += triangleArea
            center += (triangleArea / 3) * (e1 + e2)
            let intx2 = e1.x * e1.x + e2.x * e1.x + e2.x * e2.x
            let inty2 = e1.y * e1.y + e2.y * e1.y + e2.y * e2.y
            moment += (0.25 / 3 * d) * (intx2 + inty2)
        }
        let centroidFromOrigin = (1 / area) * center
        let centroid = origin + centroidFromOrigin
        // Shift the moment from `origin` to the centroid.
        let momentAboutCentroid = moment - area * centroidFromOrigin.lengthSquared
        return (area, centroid, momentAboutCentroid)
    }

    /// Farthest extent from the body origin, for the continuous-collision fast test.
    var extent: Double {
        var m = 0.0
        for v in vertices { m = max(m, v.length) }
        return m + radius
    }

    /// Smallest distance from the centroid to the outline, for deciding when a body is fast.
    var innerRadius: Double {
        if vertices.count == 1 { return radius }
        if vertices.count == 2 { return 0 }
        var m = Double.infinity
        // Outward normals: an edge's distance from the origin is n . v, positive inside.
        for i in 0..<vertices.count { m = min(m, normals[i].dot(vertices[i])) }
        return max(m, 0) + radius
    }
}
