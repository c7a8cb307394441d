internal import CContactKernel

/// Collision detection of a world step: placing the shapes, bounding boxes, the broad phase and
/// the narrow phase that turns candidate pairs into contacts (warm-started from last step's).
extension World {
    /// Places every item's and boundary's shape in the world for this step (the narrow phase
    /// reads the placed vertices and normals instead of turning them once per pair), sets the
    /// items' bounding boxes from the placed vertices and copies what the narrow phase reads of
    /// each body into its `Collider`.
    func updateBounds() {
        // Unset: the narrow phase reads only the shapes of the items and boundaries, which
        // `placeShapes` writes (other bodies keep an empty collider, `Collider()`).
        placedVertices.setCountUnset(placedCount)
        placedNormals.setCountUnset(placedCount)
        colliders.setCount(bodies.count, filler: Collider())
        let out = (vertices: placedVertices.base, normals: placedNormals.base, colliders: colliders.base)
        let boundaries = boundaryBodies, items = itemBodies, kernel = boxManifolds.kernel
        bodies.withUnsafeMutableBufferPointer { bp in
            vertices.withUnsafeBufferPointer { vp in
                normals.withUnsafeBufferPointer { np in
                    guard let B = bp.baseAddress, let V = vp.baseAddress, let N = np.baseAddress else { return }
                    // The items with four vertices in C where it runs (the narrow phase's kernel).
                    let boxesPlaced = BoxPlacement.place(items: items, kernel: kernel, B, V, N, into: out)
                    World.placeShapes(boundaries: boundaries, items: items, skippingBoxes: boxesPlaced, B, V, N,
                                      into: out)
                }
            }
        }
    }

    /// `updateBounds` on pointers (passed in, so the loops keep them in registers while they
    /// write through them), leaving out the items with four vertices when `skippingBoxes`.
    private static func placeShapes(
        boundaries: [Int32], items: [Int32], skippingBoxes: Bool, _ bodies: UnsafeMutablePointer<Body>,
        _ vertices: UnsafePointer<Vector2>, _ normals: UnsafePointer<Vector2>,
        into out: (vertices: UnsafeMutablePointer<Vector2>, normals: UnsafeMutablePointer<Vector2>,
                   colliders: UnsafeMutablePointer<Collider>)
    ) {
        let margin = PhysicsConstants.speculativeDistance
        let pv = out.vertices, pn = out.normals, cp = out.colliders
        // Through pointers: a copy of the large Body record costs a memcpy.
        for i in boundaries {
            let b = bodies + Int(i)
            let xf = b.pointee.transform
            let v = vertices + b.pointee.shapeStart, n = normals + b.pointee.shapeStart
            let p = b.pointee.placedStart
            for k in 0..<b.pointee.shapeCount {
                pv[p + k] = xf.apply(v[k])
                pn[p + k] = xf.q.rotate(n[k])
            }
            cp[Int(i)] = Collider(b.pointee, placedNormals: UnsafePointer(pn))
        }
        for i in items {
            let b = bodies + Int(i)
            if skippingBoxes && b.pointee.shapeCount == 4 { continue }
            let xf = b.pointee.transform
            var lo = Vector2(Double.infinity, Double.infinity)
            var hi = Vector2(-Double.infinity, -Double.infinity)
            let v = vertices + b.pointee.shapeStart, n = normals + b.pointee.shapeStart
            let s = b.pointee.placedStart
            for k in 0..<b.pointee.shapeCount {
                let p = xf.apply(v[k])
                pv[s + k] = p
                pn[s + k] = xf.q.rotate(n[k])
                lo = Vector2(min(lo.x, p.x), min(lo.y, p.y))
                hi = Vector2(max(hi.x, p.x), max(hi.y, p.y))
            }
            let r = b.pointee.radius + margin
            b.pointee.lower = Vector2(lo.x - r, lo.y - r)
            b.pointee.upper = Vector2(hi.x + r, hi.y + r)
            cp[Int(i)] = Collider(b.pointee, placedNormals: UnsafePointer(pn))
        }
    }

    /// The step's contacts, in stages: last step's contacts kept for warm starting, the
    /// candidate pairs, then the narrow phase that turns them into contacts.
    func findContacts() {
        keepLastStepContacts()
        findCandidatePairs()
        findContactsOfPairs()
        releaseNarrowPhaseScratch()
    }

    /// Gives back what only the narrow phase reads (placed shapes, colliders, last step's point
    /// ids: 1.2 MB on the 5050-box pyramid), so that the solver's per-step records reuse that
    /// memory rather than adding to the step's peak; `updateBounds` sets them again next step.
    private func releaseNarrowPhaseScratch() {
        placedVertices.release()
        placedNormals.release()
        colliders.release()
        oldContactPointIDs.release()
    }

    /// Last step's point ids become `oldContactPointIDs`; with its keys and the impulses the
    /// solver left in its batches, that is all the warm start reads of last step's contacts
    /// (`OldContacts`). Their records are not kept: the narrow phase overwrites them in place
    /// (one array of contacts, not two, at 112 bytes a contact).
    private func keepLastStepContacts() {
        swap(&contactPointIDs, &oldContactPointIDs)
    }

    /// The candidate pairs: the broad phase's pairs of items, then every boundary with each
    /// movable item of its group whose box overlaps the boundary's.
    private func findCandidatePairs() {
        // The broad phase's pairs of last step stay for it to reuse (the boundary pairs go).
        pairs.removeLast(pairs.count - min(pairs.count, broadPhase.reusablePairCount))
        let items = itemBodies
        bodies.withUnsafeMutableBufferPointer { bp in
            let B = bp.baseAddress!
            broadPhase.findPairs(bodies: B, items: items, cellSize: cellSize, pairs: &pairs)
            for bi in boundaryBodies {
                // Through pointers: a copy of the large Body record per item costs a memcpy.
                let s = B + Int(bi)
                let group = s.pointee.boundaryGroup, lower = s.pointee.lower, upper = s.pointee.upper
                for i in items {
                    let b = B + Int(i)
                    if b.pointee.invMass == 0 || b.pointee.boundaryMask & group == 0 { continue }
                    if b.pointee.upper.x < lower.x || upper.x < b.pointee.lower.x || b.pointee.upper.y < lower.y
                        || upper.y < b.pointee.lower.y { continue }
                    pairs.append(SIMD2(i, bi))
                }
            }
        }
    }

    /// The narrow phase into the step's contact arrays, sized for every pair, written through
    /// pointers and cut to the contacts found (no append, uniqueness or exclusivity check per
    /// contact); the arrays keep their storage from step to step. The keys are written over
    /// last step's, so whether they changed comes out of the same pass (`contactKeysVersion`).
    private func findContactsOfPairs() {
        let pairCount = pairs.count
        // Last step's keys stay as they are while the warm start looks contacts up in them; this
        // step's go to a fresh array, left unset (the narrow phase writes every key it counts).
        let oldKeys = contactKeys, oldKeysMayRepeat = contactKeysMayRepeat
        contactKeysMayRepeat = broadPhase.pairsMayRepeat
        var found = contacts
        var keys = [UInt64](unsafeUninitializedCapacity: pairCount) { _, n in n = pairCount }
        var touching = [UInt64](repeating: 0, count: (pairCount + 63) / 64)
        contacts = []
        contactKeys = []
        found.setCount(pairCount, filler: ContactConstraint(a: 0, b: 0))
        contactPointIDs.setCountUnset(pairCount)  // written for each contact found, cut to them
        let ids = contactPointIDs.base
        let counts = found.withUnsafeMutableBufferPointer { fp in keys.withUnsafeMutableBufferPointer { kp in
            touching.withUnsafeMutableBufferPointer { tp in oldKeys.withUnsafeBufferPointer { ok in
                narrowPhase(oldKeys: ok, mayRepeat: oldKeysMayRepeat, into: (fp.baseAddress!, kp.baseAddress!, ids, tp.baseAddress!))
            } }
        } }
        found.setCount(counts.found, filler: ContactConstraint(a: 0, b: 0))
        keys.setCount(counts.found, filler: 0)
        touching.setCount((counts.found + 63) / 64, filler: 0)
        contactPointIDs.setCount(counts.found, filler: .zero)
        contacts = found
        contactKeys = keys
        let keysChanged = counts.found != oldKeys.count || counts.keysDiffer
        if keysChanged { contactKeysVersion += 1 }
        // The same keys touching in the same order as last step (the same keys and bits).
        if keysChanged || touching != touchingContacts { touchingChanged = true }
        touchingContacts = touching
        touchingCount = counts.touching
    }

    /// Runs `narrowPhase` on the world's shapes (as given and placed), bodies, colliders,
    /// candidate pairs and last step's contacts (keys `oldKeys`, some repeated if `mayRepeat`),
    /// with the C box lanes' scratch.
    private func narrowPhase(oldKeys: UnsafeBufferPointer<UInt64>, mayRepeat: Bool,
                             into out: NarrowPhaseOutput) -> NarrowPhaseCounts {
        let placed = (vertices: UnsafePointer(placedVertices.base), normals: UnsafePointer(placedNormals.base))
        let colliders = UnsafePointer(colliders.base), oldPointIDs = UnsafeBufferPointer(oldContactPointIDs.elements)
        let bodyCount = bodies.count
        return vertices.withUnsafeBufferPointer { vp in normals.withUnsafeBufferPointer { np in
            guard let V = vp.baseAddress, let N = np.baseAddress else { return (0, 0, true) }
            let shapes = ShapeArrays(vertices: V, normals: N, placedVertices: placed.vertices, placedNormals: placed.normals)
            return boxManifolds.withBatch(capacity: World.narrowChunk, vertices: placed.vertices, normals: placed.normals) {
                boxes in
                bodies.withUnsafeBufferPointer { bp in pairs.withUnsafeBufferPointer { pp in
                    contactSolver.withImpulses(contactCount: oldPointIDs.count) { impulses in
                        var old = OldContacts(keys: oldKeys, keysMayRepeat: mayRepeat, pointIDs: oldPointIDs,
                                              impulses: impulses, bodyCount: bodyCount)
                        return World.narrowPhase(pp, bp.baseAddress!, colliders, shapes, boxes, &old, into: out)
                    }
                } }
            }
        } }
    }

    /// Where the narrow phase writes, in pair order: contact records, their keys, their point
    /// ids, and which of them touch (bit k of word k / 64 for contact k, the words zeroed).
    typealias NarrowPhaseOutput = (contacts: UnsafeMutablePointer<ContactConstraint>, keys: UnsafeMutablePointer<UInt64>,
                                   pointIDs: UnsafeMutablePointer<SIMD4<UInt32>>, touching: UnsafeMutablePointer<UInt64>)

    /// How many contacts and touching ones the narrow phase found, and whether a key differs
    /// from last step's key at the same index.
    typealias NarrowPhaseCounts = (found: Int, touching: Int, keysDiffer: Bool)

    /// Pairs per run of the C box manifolds: their scratch records (96 bytes each) stay in the
    /// first-level cache between the lanes writing and the contacts reading them.
    static let narrowChunk = 128

    /// Turns the candidate pairs into contacts, in pair order, written to `out` (records, keys,
    /// point ids, and the keys of the touching ones); returns how many contacts and touching
    /// ones, and whether a key differs from last step's at the same index. A chunk of pairs at a
    /// time: the pairs of two boxes (most of them) get their manifolds from the C lanes first,
    /// then every pair of the chunk becomes a contact (runs of box pairs through the C writer).
    private static func narrowPhase(
        _ pairs: UnsafeBufferPointer<SIMD2<Int32>>, _ bodies: UnsafePointer<Body>, _ colliders: UnsafePointer<Collider>,
        _ shapes: ShapeArrays, _ boxes: BoxManifolds.Batch?, _ old: inout OldContacts,
        into out: NarrowPhaseOutput
    ) -> NarrowPhaseCounts {
        let C = colliders
        var counts: NarrowPhaseCounts = (0, 0, false)
        var writer = boxes != nil ? BoxContacts(old: old, into: out) : nil
        for first in stride(from: 0, to: pairs.count, by: narrowChunk) {
            let end = min(first + narrowChunk, pairs.count)
            if let boxes {
                var n = 0
                if writer != nil {
                    // The C records line up (the writer's check): the pairs are set in C.
                    n = boxes.setPairs(pairs, first..<end, colliders: C)
                } else {
                    for k in first..<end {
                        let a = C + Int(pairs[k].x), b = C + Int(pairs[k].y)
                        if a.pointee.isRectangle && b.pointee.isRectangle {
                            boxes.setPair(n, Int(a.pointee.shapeStart), Int(b.pointee.shapeStart))
                            n += 1
                        }
                    }
                }
                boxes.run(count: n)
            }
            var n = 0, k = first
            while k < end {
                // The writer is used in place (`&writer!`): a copy of it (145 bytes, a memcpy) per
                // run and per other pair cost 700 instructions a ground pair on the base-10 pyramid.
                if let boxes, writer != nil, C[Int(pairs[k].x)].isRectangle && C[Int(pairs[k].y)].isRectangle {
                    let stop = writeBoxRun(pairs, from: k, to: end, C, boxes.records(from: n), &writer!, &counts, &old)
                    n += stop - k
                    k = stop
                    if k == end || !(C[Int(pairs[k].x)].isRectangle && C[Int(pairs[k].y)].isRectangle) { continue }
                }
                let a = Int(pairs[k].x), b = Int(pairs[k].y)
                var box: Manifold?
                if let boxes, C[a].isRectangle && C[b].isRectangle {
                    box = boxes.manifold(n)
                    n += 1
                }
                let c = out.contacts + counts.found
                let key = World.pairKey(a, b)
                let found = counts.found
                if let ids = World.contact(a, b, key: key, bodies, C, shapes, box, &old, index: found, into: c) {
                    if found >= old.keys.count || old.keys[found] != key { counts.keysDiffer = true }
                    out.keys[found] = key
                    out.pointIDs[found] = ids
                    if c.pointee.touching {
                        out.touching[found >> 6] |= 1 << UInt64(found & 63)
                        counts.touching += 1
                    }
                    counts.found += 1
                }
                k += 1
            }
        }
        return counts
    }

    /// Writes the contacts of the run of box pairs from `first` (up to `end`) with the C
    /// writer, whose counts continue `counts`; returns the first pair not written (past the
    /// run, or one whose last-step contact the Swift lookup must find). The writer stops at
    /// the first pair that is not two boxes.
    @inline(__always)
    private static func writeBoxRun(
        _ pairs: UnsafeBufferPointer<SIMD2<Int32>>, from first: Int, to end: Int, _ C: UnsafePointer<Collider>,
        _ records: UnsafePointer<QixBoxManifold>, _ writer: inout BoxContacts, _ counts: inout NarrowPhaseCounts,
        _ old: inout OldContacts
    ) -> Int {
        writer.output.found = counts.found
        writer.output.touchingCount = counts.touching
        writer.output.keysDiffer = counts.keysDiffer ? 1 : 0
        let stop = writer.write(pairs, first..<end, colliders: C, records: records, lookup: &old)
        counts = (writer.output.found, writer.output.touchingCount, writer.output.keysDiffer != 0)
        return stop
    }

    /// Writes the contact between bodies `a` and `b` (pair key `key`) to `c` (contact `index` of
    /// the step) and returns its point ids and count (id0, id1, count, 0), or returns nil when
    /// they are apart or do not collide, with last step's impulses for the points that persist
    /// (matched by feature id); `box` is their manifold when the C lanes computed it.
    @inline(__always)
    private static func contact(
        _ a: Int, _ b: Int, key: UInt64, _ bodies: UnsafePointer<Body>, _ colliders: UnsafePointer<Collider>,
        _ shapes: ShapeArrays, _ box: Manifold?, _ old: inout OldContacts, index: Int,
        into c: UnsafeMutablePointer<ContactConstraint>
    ) -> SIMD4<UInt32>? {
        let A = colliders + a, Bb = colliders + b
        if A.pointee.invMass == 0 && Bb.pointee.invMass == 0 { return nil }
        if !Bb.pointee.isBoundary && A.pointee.itemMask & Bb.pointee.itemMask == 0 { return nil }
        let m: Manifold
        if let box {
            // Two rectangles (most pairs): the same manifold from the C lanes, same bits.
            m = box
        } else {
            m = manifold(a, b, bodies, colliders, shapes)
        }
        if m.count == 0 { return nil }
        var p0 = ContactPoint(point: m.p0.point, separation: m.p0.separation)
        var p1 = ContactPoint()
        let ids = SIMD4(m.p0.id, m.count > 1 ? m.p1.id : 0, UInt32(truncatingIfNeeded: m.count), 0)
        if m.count > 1 {
            p1 = ContactPoint(point: m.p1.point, separation: m.p1.separation)
        }
        if let impulses = old.impulses, let previous = old.find(a, b, key: key, index: index) {
            warmStart(&p0, &p1, ids: ids, pointIDs: old.pointIDs[previous], impulses.points(of: previous))
        }
        c.initialize(to: ContactConstraint(a: a, b: b, normal: m.normal, pointCount: m.count, p0: p0, p1: p1))
        return ids
    }

    /// The manifold of bodies `a` and `b` on the Swift path (every pair but two rectangles).
    @inline(__always)
    private static func manifold(_ a: Int, _ b: Int, _ bodies: UnsafePointer<Body>, _ colliders: UnsafePointer<Collider>,
                                 _ shapes: ShapeArrays) -> Manifold {
        let startA = Int(colliders[a].shapeStart), countA = Int(colliders[a].shapeCount)
        let startB = Int(colliders[b].shapeStart), countB = Int(colliders[b].shapeCount)
        if countA != 1 && countB != 1 {
            // Polygons and segments: the shapes were placed once for the step (same operations
            // as `Collide.polygons`, so the same bits).
            return Collide.clipPolygons(shapes.placedVertices + startA, shapes.placedNormals + startA, countA,
                                        shapes.placedVertices + startB, shapes.placedNormals + startB, countB,
                                        margin: PhysicsConstants.speculativeDistance)
        }
        // Circles: from the body frames (their radius and placement are not in the collider;
        // the body-frame shapes start at the bodies' `shapeStart`).
        let bodyA = bodies + a, bodyB = bodies + b
        let localA = bodyA.pointee.shapeStart, localB = bodyB.pointee.shapeStart
        let sa = PlacedShape(vertices: shapes.vertices + localA, normals: shapes.normals + localA, count: countA,
                             radius: bodyA.pointee.radius, xf: Transform(p: bodyA.pointee.origin, q: bodyA.pointee.q))
        let sb = PlacedShape(vertices: shapes.vertices + localB, normals: shapes.normals + localB, count: countB,
                             radius: bodyB.pointee.radius, xf: Transform(p: bodyB.pointee.origin, q: bodyB.pointee.q))
        return Collide.manifold(sa, sb, margin: PhysicsConstants.speculativeDistance)
    }

    /// Gives the new points `p0` and (with a count of 2) `p1` the impulses of last step's
    /// contact at the points with the same feature id (`ids` and `pointIDs`: id0, id1, count;
    /// `previous`: that contact's impulses). When both old points have the id, the second's
    /// are taken (the order in which a loop over the old points would set them).
    @inline(__always)
    private static func warmStart(_ p0: inout ContactPoint, _ p1: inout ContactPoint, ids: SIMD4<UInt32>,
                                  pointIDs o: SIMD4<UInt32>, _ previous: ContactSolver.Impulses.Points) {
        let oldCount = o[2], count = ids[2]
        if oldCount == 0 || count == 0 { return }
        // Written out for one or two points on each side (a loop over SIMD lanes spilled them
        // to the stack: 87 instructions a pair on the base-20 pyramid).
        @inline(__always) func take(_ id: UInt32, _ p: inout ContactPoint) {
            if oldCount > 1 && o[1] == id {
                (p.normalImpulse, p.tangentImpulse) = previous.second
            } else if o[0] == id {
                (p.normalImpulse, p.tangentImpulse) = previous.first
            }
        }
        take(ids[0], &p0)
        if count > 1 { take(ids[1], &p1) }
    }
}
