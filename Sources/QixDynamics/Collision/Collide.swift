/// Narrow phase: contact manifolds between convex polygons, circles and segments (Box2D-style
/// SAT with reference-face clipping), keeping speculative points closer than `margin`.
enum Collide {
    /// The manifold between two placed shapes, or an empty one when they are farther than `margin`.
    static func manifold(_ a: PlacedShape, _ b: PlacedShape, margin: Double) -> Manifold {
        let aCircle = a.count == 1
        let bCircle = b.count == 1
        if aCircle && bCircle {
            return circles(a.xf.apply(a.vertices[0]), a.radius, b.xf.apply(b.vertices[0]), b.radius, margin: margin)
        }
        if bCircle { return polygonCircle(a, b.xf.apply(b.vertices[0]), b.radius, margin: margin) }
        if aCircle {
            var m = polygonCircle(b, a.xf.apply(a.vertices[0]), a.radius, margin: margin)
            m.normal = -m.normal
            return m
        }
        return polygons(a, b, margin: margin)
    }

    static func circles(_ ca: Vector2, _ ra: Double, _ cb: Vector2, _ rb: Double, margin: Double) -> Manifold {
        var m = Manifold()
        let d = cb - ca
        let dist = d.length
        let separation = dist - ra - rb
        if separation > margin { return m }
        let normal = dist > 1e-12 ? (1 / dist) * d : Vector2(0, 1)
        let pa = ca + ra * normal
        let pb = cb - rb * normal
        m.normal = normal
        m.append(ManifoldPoint(point: 0.5 * (pa + pb), separation: separation, id: 0))
        return m
    }

    /// Polygon (or segment) A against a circle B; the normal points from A to B.
    static func polygonCircle(_ a: PlacedShape, _ centerWorld: Vector2, _ radius: Double, margin: Double) -> Manifold {
        var m = Manifold()
        let c = a.xf.inverseApply(centerWorld)
        let n = a.count
        var best = 0
        var bestSeparation = -Double.infinity
        for i in 0..<n {
            let s = a.normals[i].dot(c - a.vertices[i])
            if s > bestSeparation {
                bestSeparation = s
                best = i
            }
        }
        if bestSeparation - radius > margin { return m }
        let v1 = a.vertices[best]
        let v2 = a.vertices[best + 1 < n ? best + 1 : 0]
        var normal: Vector2
        var separation: Double
        if bestSeparation < 1e-9 {
            normal = a.normals[best]
            separation = bestSeparation - radius
        } else {
            let u1 = (c - v1).dot(v2 - v1)
            let u2 = (c - v2).dot(v1 - v2)
            if u1 <= 0 || u2 <= 0 {
                let v = u1 <= 0 ? v1 : v2
                let d = c - v
                let dist = d.length
                separation = dist - radius
                if separation > margin { return m }
                normal = dist > 1e-12 ? (1 / dist) * d : a.normals[best]
            } else {
                normal = a.normals[best]
                separation = (c - v1).dot(normal) - radius
            }
        }
        let local = c - (radius + 0.5 * separation) * normal
        m.normal = a.xf.q.rotate(normal)
        m.append(ManifoldPoint(point: a.xf.apply(local), separation: separation, id: UInt32(best)))
        return m
    }

    /// The edge of `p1` with the largest separation from `p2` (both given in world coordinates).
    @inline(__always)
    static func maxSeparation(_ v1: UnsafePointer<Vector2>, _ n1: UnsafePointer<Vector2>, _ count1: Int,
                              _ v2: UnsafePointer<Vector2>, _ count2: Int) -> (edge: Int, separation: Double) {
        if count1 == 4 && count2 == 4 && isBox(n1) { return boxSeparation(v1, n1, v2) }
        var bestIndex = 0
        var maxSeparation = -Double.infinity
        for i in 0..<count1 {
            let n = n1[i]
            let base = n.dot(v1[i])
            // min_j (d_j - base) == (min_j d_j) - base exactly: rounding a difference is monotone
            // in d_j, so the smallest d_j gives the smallest rounded difference (one subtraction
            // per edge instead of one per vertex, same bits).
            var closest = Double.infinity
            if count2 == 4 {
                // Boxes (most pairs): the same comparisons in the same order, unrolled.
                let d0 = n.dot(v2[0]), d1 = n.dot(v2[1]), d2 = n.dot(v2[2]), d3 = n.dot(v2[3])
                if d0 < closest { closest = d0 }
                if d1 < closest { closest = d1 }
                if d2 < closest { closest = d2 }
                if d3 < closest { closest = d3 }
            } else {
                for j in 0..<count2 {
                    let d = n.dot(v2[j])
                    if d < closest { closest = d }
                }
            }
            let si = closest - base
            if si > maxSeparation {
                maxSeparation = si
                bestIndex = i
            }
        }
        return (bestIndex, maxSeparation)
    }

    /// Whether four normals come in opposite pairs (a rectangle): n2 = -n0 and n3 = -n1, bit for bit.
    @inline(__always)
    static func isBox(_ n: UnsafePointer<Vector2>) -> Bool {
        n[2].x.bitPattern == (-n[0].x).bitPattern && n[2].y.bitPattern == (-n[0].y).bitPattern
            && n[3].x.bitPattern == (-n[1].x).bitPattern && n[3].y.bitPattern == (-n[1].y).bitPattern
    }

    /// `maxSeparation` of a rectangle against four vertices with half the products: along the
    /// opposite normal every product is the exact negation (rounding is symmetric), so the
    /// nearest vertex there is the farthest along the first normal (the same vertex, found with
    /// the same comparisons in the same order; at most the sign of a zero separation differs,
    /// which no comparison sees).
    @inline(__always)
    static func boxSeparation(_ v1: UnsafePointer<Vector2>, _ n1: UnsafePointer<Vector2>, _ v2: UnsafePointer<Vector2>)
        -> (edge: Int, separation: Double)
    {
        @inline(__always) func range(_ n: Vector2) -> (low: Double, high: Double) {
            let d0 = n.dot(v2[0]), d1 = n.dot(v2[1]), d2 = n.dot(v2[2]), d3 = n.dot(v2[3])
            var low = Double.infinity, high = -Double.infinity
            if d0 < low { low = d0 }
            if d1 < low { low = d1 }
            if d2 < low { low = d2 }
            if d3 < low { low = d3 }
            if d0 > high { high = d0 }
            if d1 > high { high = d1 }
            if d2 > high { high = d2 }
            if d3 > high { high = d3 }
            return (low, high)
        }
        let r0 = range(n1[0]), r1 = range(n1[1])
        let s0 = r0.low - n1[0].dot(v1[0]), s1 = r1.low - n1[1].dot(v1[1])
        let s2 = -r0.high - n1[2].dot(v1[2]), s3 = -r1.high - n1[3].dot(v1[3])
        var bestIndex = 0
        var maxSeparation = -Double.infinity
        if s0 > maxSeparation { maxSeparation = s0; bestIndex = 0 }
        if s1 > maxSeparation { maxSeparation = s1; bestIndex = 1 }
        if s2 > maxSeparation { maxSeparation = s2; bestIndex = 2 }
        if s3 > maxSeparation { maxSeparation = s3; bestIndex = 3 }
        return (bestIndex, maxSeparation)
    }

    struct ClipVertex {
        var v: Vector2
        var id: UInt32
    }

    static func polygons(_ a: PlacedShape, _ b: PlacedShape, margin: Double) -> Manifold {
        // Place both polygons in the world once (stack buffers, no heap allocation).
        withUnsafeTemporaryAllocation(of: Vector2.self, capacity: 2 * (a.count + b.count)) { buffer in
            let va = buffer.baseAddress!, na = va + a.count
            let vb = na + a.count, nb = vb + b.count
            for k in 0..<a.count {
                va[k] = a.xf.apply(a.vertices[k])
                na[k] = a.xf.q.rotate(a.normals[k])
            }
            for k in 0..<b.count {
                vb[k] = b.xf.apply(b.vertices[k])
                nb[k] = b.xf.q.rotate(b.normals[k])
            }
            return clipPolygons(va, na, a.count, vb, nb, b.count, margin: margin)
        }
    }

    static func clipPolygons(_ va: UnsafePointer<Vector2>, _ na: UnsafePointer<Vector2>, _ countA: Int,
                             _ vb: UnsafePointer<Vector2>, _ nb: UnsafePointer<Vector2>, _ countB: Int,
                             margin: Double) -> Manifold {
        var m = Manifold()
        let (edgeA, separationA) = maxSeparation(va, na, countA, vb, countB)
        if separationA > margin { return m }
        let (edgeB, separationB) = maxSeparation(vb, nb, countB, va, countA)
        if separationB > margin { return m }

        let flip = separationB > separationA + 0.1 * PhysicsConstants.linearSlop
        let refV = flip ? vb : va, refCount = flip ? countB : countA
        let incV = flip ? va : vb, incN = flip ? na : nb, incCount = flip ? countA : countB
        let refN = flip ? nb : na
        let edge1 = flip ? edgeB : edgeA

        let refNormal = refN[edge1]
        var i1 = 0
        var minDot = Double.infinity
        for i in 0..<incCount {
            let d = refNormal.dot(incN[i])
            if d < minDot {
                minDot = d
                i1 = i
            }
        }
        let i2 = i1 + 1 < incCount ? i1 + 1 : 0
        let flipBit: UInt32 = flip ? 1 << 31 : 0
        let incident0 = ClipVertex(v: incV[i1], id: flipBit | UInt32(edge1) << 16 | UInt32(i1))
        let incident1 = ClipVertex(v: incV[i2], id: flipBit | UInt32(edge1) << 16 | UInt32(i2))

        let e2 = edge1 + 1 < refCount ? edge1 + 1 : 0
        let v11 = refV[edge1]
        let v12 = refV[e2]
        let tangent = (v12 - v11).normalized
        let normal = tangent.rightPerpendicular
        let frontOffset = normal.dot(v11)
        let sideOffset1 = -tangent.dot(v11)
        let sideOffset2 = tangent.dot(v12)

        let (n1, c0, c1) = clip(incident0, incident1, -tangent, sideOffset1, clipID: flipBit | 1 << 30 | UInt32(edge1) << 16 | 0x100)
        if n1 < 2 { return m }
        let (n2, d0, d1) = clip(c0, c1, tangent, sideOffset2, clipID: flipBit | 1 << 30 | UInt32(edge1) << 16 | 0x200)
        if n2 < 2 { return m }

        m.normal = flip ? -normal : normal
        let s0 = normal.dot(d0.v) - frontOffset
        if s0 <= margin { m.append(ManifoldPoint(point: d0.v - (0.5 * s0) * normal, separation: s0, id: d0.id)) }
        let s1 = normal.dot(d1.v) - frontOffset
        if s1 <= margin { m.append(ManifoldPoint(point: d1.v - (0.5 * s1) * normal, separation: s1, id: d1.id)) }
        return m
    }

    /// Sutherland-Hodgman clipping of a segment against the half-plane dot(normal, v) <= offset.
    @inline(__always)
    static func clip(_ v0: ClipVertex, _ v1: ClipVertex, _ normal: Vector2, _ offset: Double, clipID: UInt32)
        -> (Int, ClipVertex, ClipVertex)
    {
        var out0 = v0
        var out1 = v1
        var count = 0
        let d0 = normal.dot(v0.v) - offset
        let d1 = normal.dot(v1.v) - offset
        if d0 <= 0 { out0 = v0; count = 1 }
        if d1 <= 0 {
            if count == 0 { out0 = v1 } else { out1 = v1 }
            count += 1
        }
        if d0 * d1 < 0, count < 2 {
            let t = d0 / (d0 - d1)
            let p = ClipVertex(v: v0.v + t * (v1.v - v0.v), id: clipID)
            if count == 0 { out0 = p } else { out1 = p }
            count += 1
        }
        return (count, out0, out1)
    }
}
