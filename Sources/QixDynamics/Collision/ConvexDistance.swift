/// Distance between two convex cores placed in the world (vertices and outward edge normals; a
/// segment is a two-vertex polygon with both normals, a circle's core one point), for the time
/// of impact. Exact when they are apart (closest vertex-edge pair both ways, the shapes have at
/// most 24 vertices); when they overlap, minus the depth on the least-overlapping edge normal.
enum ConvexDistance {
    /// The distance from `a` to `b` and the unit axis pointing from `a` towards `b`.
    static func between(_ a: UnsafeBufferPointer<Vector2>, _ an: UnsafeBufferPointer<Vector2>,
                        _ b: UnsafeBufferPointer<Vector2>, _ bn: UnsafeBufferPointer<Vector2>)
        -> (distance: Double, normal: Vector2) {
        let axis = bestAxis(a, an, b, bn)
        // Two single points have no edge normal: only the closest points below can separate them.
        if axis.separation <= 0 && (a.count > 1 || b.count > 1) { return (axis.separation, axis.normal) }
        // Closest points as (on a, on b).
        let fromB = closest(of: b, to: a)
        let fromA = closest(of: a, to: b)
        let pair = fromA.distanceSquared < fromB.distanceSquared ? (fromA.from, fromA.to, fromA.distanceSquared)
            : (fromB.to, fromB.from, fromB.distanceSquared)
        let d = pair.2.squareRoot()
        if d < 1e-12 { return (0, axis.normal) }
        return (d, (1 / d) * (pair.1 - pair.0))
    }

    /// The edge normal (of either shape) along which the two are farthest apart, and that gap
    /// (Box2D's separating-axis test; the normal is turned to point from `a` to `b`).
    static func bestAxis(_ a: UnsafeBufferPointer<Vector2>, _ an: UnsafeBufferPointer<Vector2>,
                         _ b: UnsafeBufferPointer<Vector2>, _ bn: UnsafeBufferPointer<Vector2>)
        -> (separation: Double, normal: Vector2) {
        var best = -Double.infinity
        var normal = Vector2(0, 1)
        if a.count > 1 {
            for i in 0..<a.count {
                let s = minimumGap(along: an[i], from: a[i], to: b)
                if s > best { best = s; normal = an[i] }
            }
        }
        if b.count > 1 {
            for i in 0..<b.count {
                let s = minimumGap(along: bn[i], from: b[i], to: a)
                if s > best { best = s; normal = -bn[i] }
            }
        }
        return (best, normal)
    }

    /// How far the nearest of `points` lies in front of the edge through `p` with normal `n`.
    @inline(__always)
    static func minimumGap(along n: Vector2, from p: Vector2, to points: UnsafeBufferPointer<Vector2>) -> Double {
        var m = Double.infinity
        for q in points { m = min(m, n.dot(q - p)) }
        return m
    }

    /// The vertex of `points` nearest to the outline of `shape`: squared distance, the point on
    /// the outline (`to`) and the vertex (`from`).
    static func closest(of points: UnsafeBufferPointer<Vector2>, to shape: UnsafeBufferPointer<Vector2>)
        -> (distanceSquared: Double, to: Vector2, from: Vector2) {
        var best = (distanceSquared: Double.infinity, to: Vector2.zero, from: Vector2.zero)
        // A segment's two edges are the same line: one is enough.
        let edges = shape.count == 2 ? 1 : shape.count
        for p in points {
            for i in 0..<edges {
                let q = nearestPoint(to: p, from: shape[i], to: shape[i + 1 < shape.count ? i + 1 : 0])
                let d2 = (p - q).lengthSquared
                if d2 < best.distanceSquared { best = (d2, q, p) }
            }
        }
        return best
    }

    /// The point of the segment `a`-`b` nearest to `p`.
    @inline(__always)
    static func nearestPoint(to p: Vector2, from a: Vector2, to b: Vector2) -> Vector2 {
        let e = b - a
        let l2 = e.lengthSquared
        if l2 == 0 { return a }
        let u = min(max((p - a).dot(e) / l2, 0), 1)
        return a + u * e
    }
}
