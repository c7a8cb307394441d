/// Collision detection of a world step: placing the shapes, bounding boxes, the broad phase and
/// the narrow phase that turns candidate pairs into contacts (warm-started from last step's).
extension World {
    /// Places every item's and boundary's shape in the world for this step (the narrow phase
    /// reads the placed vertices and normals instead of turning them once per pair) and sets the
    /// items' bounding boxes from the placed vertices.
    func updateBounds() {
        let margin = PhysicsConstants.speculativeDistance
        placedVertices.setCount(vertices.count, filler: .zero)
        placedNormals.setCount(normals.count, filler: .zero)
        bodies.withUnsafeMutableBufferPointer { bp in
            vertices.withUnsafeBufferPointer { vp in
                normals.withUnsafeBufferPointer { np in
                    placedVertices.withUnsafeMutableBufferPointer { pv in
                        placedNormals.withUnsafeMutableBufferPointer { pn in
                            for i in boundaryBodies {
                                let b = bp[Int(i)]
                                let xf = b.transform
                                for k in b.shapeStart..<(b.shapeStart + b.shapeCount) {
                                    pv[k] = xf.apply(vp[k])
                                    pn[k] = xf.q.rotate(np[k])
                                }
                            }
                            for i in itemBodies {
                                var b = bp[Int(i)]
                                let xf = b.transform
                                var lo = Vector2(Double.infinity, Double.infinity)
                                var hi = Vector2(-Double.infinity, -Double.infinity)
                                for k in b.shapeStart..<(b.shapeStart + b.shapeCount) {
                                    let p = xf.apply(vp[k])
                                    pv[k] = p
                                    pn[k] = xf.q.rotate(np[k])
                                    lo = Vector2(min(lo.x, p.x), min(lo.y, p.y))
                                    hi = Vector2(max(hi.x, p.x), max(hi.y, p.y))
                                }
                                let r = b.radius + margin
                                b.lower = Vector2(lo.x - r, lo.y - r)
                                b.upper = Vector2(hi.x + r, hi.y + r)
                                bp[Int(i)].lower = b.lower
                                bp[Int(i)].upper = b.upper
                            }
                        }
                    }
                }
            }
        }
    }

    func findContacts() {
        swap(&contacts, &oldContacts)
        contacts.removeAll(keepingCapacity: true)
        let bodyCount = bodies.count
        // Last step's keys stand for last step's contacts (rebuilt from them if they do not match).
        if contactKeys.count != oldContacts.count { contactKeys = oldContacts.map(\.key) }
        contactKeys.withUnsafeBufferPointer { pairTable.rebuild(keys: $0, bodyCount: bodyCount) }
        pairs.removeAll(keepingCapacity: true)
        let items = itemBodies
        bodies.withUnsafeMutableBufferPointer { bp in
            let B = bp.baseAddress!
            broadPhase.findPairs(bodies: B, items: items, cellSize: cellSize, pairs: &pairs)
            for bi in boundaryBodies {
                let s = B[Int(bi)]
                for i in items {
                    let b = B[Int(i)]
                    if b.invMass == 0 || b.boundaryMask & s.boundaryGroup == 0 { continue }
                    if b.upper.x < s.lower.x || s.upper.x < b.lower.x || b.upper.y < s.lower.y || s.upper.y < b.lower.y { continue }
                    pairs.append(SIMD2(i, bi))
                }
            }
        }
        // Narrow phase into a local array (no exclusivity checks on a class property per append).
        var found = contacts
        contacts = []
        found.removeAll(keepingCapacity: true)
        found.reserveCapacity(pairs.count)
        var keys = contactKeys
        contactKeys = []
        keys.removeAll(keepingCapacity: true)
        var touching = stepTouchingKeys
        stepTouchingKeys = []
        touching.removeAll(keepingCapacity: true)
        vertices.withUnsafeBufferPointer { vp in
            normals.withUnsafeBufferPointer { np in
                placedVertices.withUnsafeBufferPointer { pvp in
                    placedNormals.withUnsafeBufferPointer { pnp in
                        guard let V = vp.baseAddress, let N = np.baseAddress,
                              let PV = pvp.baseAddress, let PN = pnp.baseAddress else { return }
                        let shapes = ShapeArrays(vertices: V, normals: N, placedVertices: PV, placedNormals: PN)
                        bodies.withUnsafeBufferPointer { bp in
                            oldContacts.withUnsafeBufferPointer { op in
                                pairs.withUnsafeBufferPointer { pp in
                                    pairTable.withLookup { lookup in
                                        contactSolver.withImpulses(contactCount: op.count) { impulses in
                                            for pair in pp {
                                                if let c = World.contact(Int(pair.x), Int(pair.y), bp.baseAddress!, shapes, lookup, op,
                                                                         impulses) {
                                                    found.append(c)
                                                    keys.append(c.key)
                                                    if c.touching { touching.append(c.key) }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        contacts = found
        contactKeys = keys
        stepTouchingKeys = touching
    }

    /// The contact between bodies `a` and `b` (nil when they are apart or do not collide), with
    /// last step's impulses for the points that persist (matched by feature id).
    @inline(__always)
    private static func contact(
        _ a: Int, _ b: Int, _ bodies: UnsafePointer<Body>, _ shapes: ShapeArrays,
        _ pairTable: PairTable.Lookup, _ oldContacts: UnsafeBufferPointer<ContactConstraint>,
        _ impulses: ContactSolver.Impulses?
    ) -> ContactConstraint? {
        let A = bodies + a, Bb = bodies + b
        if A.pointee.invMass == 0 && Bb.pointee.invMass == 0 { return nil }
        if !Bb.pointee.isBoundary && A.pointee.itemMask & Bb.pointee.itemMask == 0 { return nil }
        let startA = A.pointee.shapeStart, countA = A.pointee.shapeCount
        let startB = Bb.pointee.shapeStart, countB = Bb.pointee.shapeCount
        let m: Manifold
        if countA != 1 && countB != 1 {
            // Polygons and segments: the shapes were placed once for the step (same operations
            // as `Collide.polygons`, so the same bits).
            m = Collide.clipPolygons(shapes.placedVertices + startA, shapes.placedNormals + startA, countA,
                                     shapes.placedVertices + startB, shapes.placedNormals + startB, countB,
                                     margin: PhysicsConstants.speculativeDistance)
        } else {
            let sa = PlacedShape(vertices: shapes.vertices + startA, normals: shapes.normals + startA, count: countA,
                                 radius: A.pointee.radius, xf: Transform(p: A.pointee.origin, q: A.pointee.q))
            let sb = PlacedShape(vertices: shapes.vertices + startB, normals: shapes.normals + startB, count: countB,
                                 radius: Bb.pointee.radius, xf: Transform(p: Bb.pointee.origin, q: Bb.pointee.q))
            m = Collide.manifold(sa, sb, margin: PhysicsConstants.speculativeDistance)
        }
        if m.count == 0 { return nil }
        let centerA = A.pointee.center, centerB = Bb.pointee.center
        var c = ContactConstraint(a: a, b: b, key: World.pairKey(a, b))
        c.normal = m.normal
        c.friction = (A.pointee.friction * Bb.pointee.friction).squareRoot()
        c.restitution = max(A.pointee.restitution, Bb.pointee.restitution)
        c.pointCount = m.count
        c.p0 = ContactPoint(anchorA: m.p0.point - centerA, anchorB: m.p0.point - centerB,
                            separation: m.p0.separation, id: m.p0.id)
        if m.count > 1 {
            c.p1 = ContactPoint(anchorA: m.p1.point - centerA, anchorB: m.p1.point - centerB,
                                separation: m.p1.separation, id: m.p1.id)
        }
        c.touching = min(m.p0.separation, m.count > 1 ? m.p1.separation : .infinity) < PhysicsConstants.linearSlop
        if let impulses, let old = pairTable.find(a, b) {
            let o = oldContacts.baseAddress! + old
            for k in 0..<c.pointCount {
                var cp = k == 0 ? c.p0 : c.p1
                for ok in 0..<o.pointee.pointCount where (ok == 0 ? o.pointee.p0.id : o.pointee.p1.id) == cp.id {
                    (cp.normalImpulse, cp.tangentImpulse) = impulses.of(old, point: ok)
                }
                if k == 0 { c.p0 = cp } else { c.p1 = cp }
            }
        }
        return c
    }
}
