/// The rigid-body world: bodies, joints and contacts advanced by Box2D v3's soft step
/// (sub-stepping, soft contacts, warm starting, relaxation, restitution) plus continuous
/// collision of fast bodies against static ones. Everything runs in creation order.
final class World {
    var bodies: [Body] = []
    var states: [BodyState] = []
    var vertices: [Vector2] = []
    var normals: [Vector2] = []
    var joints: [Joint] = []
    var contacts: [ContactConstraint] = []
    private var oldContacts: [ContactConstraint] = []
    private var contactSolver = ContactSolver()
    private var motions: [BodyMotion] = []
    private var pairTable = PairTable()
    private var broadPhase = BroadPhase()
    private var pairs: [SIMD2<Int32>] = []
    /// Item bodies (dynamic or anchored, enabled), ascending.
    private(set) var itemBodies: [Int32] = []
    private(set) var boundaryBodies: [Int32] = []
    private var cellSize = 100.0
    private var listsValid = false
    /// World gravity (points/s^2) for bodies whose gravityScale is 1.
    var gravity = Vector2.zero
    /// Sub-steps per 1/120 s step.
    var substepCount = 4
    /// Whether fast bodies get continuous collision against static shapes.
    var continuousCollision = true
    /// When set, the keys of touching pairs are appended here after every step.
    var trackTouching = false
    var touchingKeys: [UInt64] = []

    /// Index of the static ground body that carries anchor points.
    static let ground = 0

    init() {
        var ground = Body(origin: .zero, angle: 0, q: .identity, localCenter: .zero, center: .zero)
        ground.isStatic = true
        bodies.append(ground)
        states.append(BodyState())
    }

    /// Adds a body with the given geometry; returns its index.
    func addBody(_ geometry: ConvexGeometry, origin: Vector2, angle: Double, density: Double, isStatic: Bool) -> Int {
        var body = Body(origin: origin, angle: angle, q: Rotation(angle: angle), localCenter: .zero, center: origin)
        body.shapeStart = vertices.count
        body.shapeCount = geometry.vertices.count
        body.radius = geometry.radius
        body.innerRadius = geometry.innerRadius
        body.isStatic = isStatic
        vertices.append(contentsOf: geometry.vertices)
        normals.append(contentsOf: geometry.normals)
        bodies.append(body)
        states.append(BodyState())
        let index = bodies.count - 1
        updateMass(index, density: density)
        listsValid = false
        return index
    }

    /// Recomputes mass, inertia and centre of mass from density (mass 1 per 10 000 point^2 at density 1).
    func updateMass(_ index: Int, density: Double) {
        var body = bodies[index]
        body.density = density
        let geometry = ConvexGeometry(
            vertices: Array(vertices[body.shapeStart..<(body.shapeStart + body.shapeCount)]),
            normals: Array(normals[body.shapeStart..<(body.shapeStart + body.shapeCount)]), radius: body.radius)
        if body.shapeCount >= 3 || body.shapeCount == 1 {
            let props = geometry.areaProperties()
            let scale = density / (PhysicsConstants.pointsPerMeter * PhysicsConstants.pointsPerMeter)
            body.mass = props.area * scale
            body.inertia = props.moment * scale
            body.localCenter = props.centroid
        }
        body.center = body.origin + body.q.rotate(body.localCenter)
        bodies[index] = body
        refreshInverseMass(index)
    }

    /// Sets the inverse mass and inertia from the body's flags.
    func refreshInverseMass(_ index: Int) {
        var body = bodies[index]
        let movable = !body.isStatic && !body.isAnchored && body.enabled && body.mass > 0
        body.invMass = movable ? 1 / body.mass : 0
        body.invInertia = movable && !body.fixedRotation && body.inertia > 0 ? 1 / body.inertia : 0
        if !movable {
            states[index].v = .zero
            states[index].w = 0
        }
        if body.fixedRotation { states[index].w = 0 }
        bodies[index] = body
        listsValid = false
    }

    /// Moves a body (and wakes nothing: the caller decides).
    func setPlacement(_ index: Int, origin: Vector2, angle: Double) {
        bodies[index].origin = origin
        bodies[index].angle = angle
        bodies[index].q = Rotation(angle: angle)
        bodies[index].center = origin + bodies[index].q.rotate(bodies[index].localCenter)
    }

    /// Marks the body lists for rebuilding after flags changed.
    func invalidateLists() { listsValid = false }

    private func refreshLists() {
        itemBodies.removeAll(keepingCapacity: true)
        boundaryBodies.removeAll(keepingCapacity: true)
        var largest = 1.0
        for i in 1..<bodies.count {
            let b = bodies[i]
            if b.isBoundary {
                boundaryBodies.append(Int32(i))
                continue
            }
            if !b.enabled || b.shapeCount == 0 { continue }
            itemBodies.append(Int32(i))
            var r = 0.0
            for k in b.shapeStart..<(b.shapeStart + b.shapeCount) { r = max(r, vertices[k].length) }
            largest = max(largest, 2 * (r + b.radius))
        }
        cellSize = largest + 2 * PhysicsConstants.speculativeDistance
        listsValid = true
    }

    @inline(__always) static func pairKey(_ a: Int, _ b: Int) -> UInt64 { UInt64(a) << 32 | UInt64(b) }

    /// Advances the world by `dt` seconds (one fixed step).
    func step(_ dt: Double) {
        if !listsValid { refreshLists() }
        updateBounds()
        findContacts()
        solve(dt)
        if continuousCollision { solveContinuous() }
        updateRest(dt)
        if trackTouching {
            contacts.withUnsafeBufferPointer { cp in
                for k in 0..<cp.count where cp[k].touching { touchingKeys.append(cp[k].key) }
            }
        }
    }

    // Phase entry points for profiling (the benchmark times them one by one).
    func phaseBounds() { if !listsValid { refreshLists() }; updateBounds() }
    func phaseContacts() { findContacts() }
    func phaseSolve(_ dt: Double) { solve(dt) }
    func phaseRest(_ dt: Double) { updateRest(dt) }

    private func updateBounds() {
        let margin = PhysicsConstants.speculativeDistance
        bodies.withUnsafeMutableBufferPointer { bp in
            vertices.withUnsafeBufferPointer { vp in
                for i in itemBodies {
                    var b = bp[Int(i)]
                    var lo = Vector2(Double.infinity, Double.infinity)
                    var hi = Vector2(-Double.infinity, -Double.infinity)
                    for k in b.shapeStart..<(b.shapeStart + b.shapeCount) {
                        let p = b.q.rotate(vp[k]) + b.origin
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

    private func findContacts() {
        swap(&contacts, &oldContacts)
        contacts.removeAll(keepingCapacity: true)
        let bodyCount = bodies.count
        oldContacts.withUnsafeBufferPointer { pairTable.rebuild(contacts: $0, bodyCount: bodyCount) }
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
        vertices.withUnsafeBufferPointer { vp in
            normals.withUnsafeBufferPointer { np in
                guard let V = vp.baseAddress, let N = np.baseAddress else { return }
                bodies.withUnsafeBufferPointer { bp in
                    oldContacts.withUnsafeBufferPointer { op in
                        pairs.withUnsafeBufferPointer { pp in
                            pairTable.withLookup { lookup in
                                for pair in pp {
                                    if let c = World.contact(Int(pair.x), Int(pair.y), bp.baseAddress!, V, N, lookup, op) {
                                        found.append(c)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        contacts = found
    }

    /// The contact between bodies `a` and `b` (nil when they are apart or do not collide), with
    /// last step's impulses for the points that persist (matched by feature id).
    @inline(__always)
    private static func contact(
        _ a: Int, _ b: Int, _ bodies: UnsafePointer<Body>, _ V: UnsafePointer<Vector2>, _ N: UnsafePointer<Vector2>,
        _ pairTable: PairTable.Lookup, _ oldContacts: UnsafeBufferPointer<ContactConstraint>
    ) -> ContactConstraint? {
        let A = bodies + a, Bb = bodies + b
        if A.pointee.invMass == 0 && Bb.pointee.invMass == 0 { return nil }
        if !Bb.pointee.isBoundary && A.pointee.itemMask & Bb.pointee.itemMask == 0 { return nil }
        let sa = PlacedShape(vertices: V + A.pointee.shapeStart, normals: N + A.pointee.shapeStart, count: A.pointee.shapeCount,
                             radius: A.pointee.radius, xf: Transform(p: A.pointee.origin, q: A.pointee.q))
        let sb = PlacedShape(vertices: V + Bb.pointee.shapeStart, normals: N + Bb.pointee.shapeStart, count: Bb.pointee.shapeCount,
                             radius: Bb.pointee.radius, xf: Transform(p: Bb.pointee.origin, q: Bb.pointee.q))
        let m = Collide.manifold(sa, sb, margin: PhysicsConstants.speculativeDistance)
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
        if let old = pairTable.find(a, b) {
            let o = oldContacts.baseAddress! + old
            for k in 0..<c.pointCount {
                var cp = k == 0 ? c.p0 : c.p1
                for ok in 0..<o.pointee.pointCount {
                    let op = ok == 0 ? o.pointee.p0 : o.pointee.p1
                    if op.id == cp.id {
                        cp.normalImpulse = op.normalImpulse
                        cp.tangentImpulse = op.tangentImpulse
                    }
                }
                if k == 0 { c.p0 = cp } else { c.p1 = cp }
            }
        }
        return c
    }

    private func solve(_ dt: Double) {
        let h = dt / Double(substepCount)
        let invH = 1 / h
        let hertz = min(PhysicsConstants.contactHertz, 0.25 * invH)
        let contactSoftness = Softness.make(hertz: hertz, zeta: PhysicsConstants.contactDampingRatio, h: h)
        let staticSoftness = Softness.make(hertz: 2 * hertz, zeta: PhysicsConstants.contactDampingRatio, h: h)
        let jointSoftness = Softness.make(hertz: 2 * hertz, zeta: PhysicsConstants.jointDampingRatio, h: h)
        let gravity = self.gravity
        let items = itemBodies
        let maxSpeedSquared = PhysicsConstants.maxLinearSpeed * PhysicsConstants.maxLinearSpeed
        let bodyCount = bodies.count
        bodies.withUnsafeMutableBufferPointer { bp in
            states.withUnsafeMutableBufferPointer { sp in
                contacts.withUnsafeMutableBufferPointer { cp in
                    joints.withUnsafeMutableBufferPointer { jp in
                        let B = bp.baseAddress!, S = sp.baseAddress!
                        let js = JointSolver(bodies: B, states: S, h: h, invH: invH, jointSoftness: jointSoftness)
                        for i in 0..<bp.count {
                            S[i].dp = .zero
                            S[i].dq = .identity
                            S[i].dAngle = 0
                            B[i].center0 = B[i].center
                            B[i].angle0 = B[i].angle
                        }
                        contactSolver.prepare(UnsafeBufferPointer(cp), bodies: B, bodyCount: bodyCount, states: S,
                                              contactSoftness: contactSoftness, staticSoftness: staticSoftness)
                        for k in 0..<jp.count { js.prepare(&jp[k]) }
                        prepareMotions(B, h: h, gravity: gravity, items: items)
                        for _ in 0..<substepCount {
                            integrateVelocities(S, maxSpeedSquared: maxSpeedSquared)
                            for k in 0..<jp.count { js.warmStart(&jp[k]) }
                            contactSolver.warmStart(S)
                            for k in 0..<jp.count { js.solve(&jp[k], useBias: true) }
                            contactSolver.solve(S, invH: invH, useBias: true)
                            integratePositions(S, h: h)
                            for k in 0..<jp.count { js.solve(&jp[k], useBias: false) }
                            contactSolver.solve(S, invH: invH, useBias: false)
                        }
                        contactSolver.restitution(S)
                        contactSolver.store(into: cp)
                        // Finalize placements.
                        for i32 in items {
                            let i = Int(i32)
                            if B[i].invMass == 0 { continue }
                            var b = B[i]
                            b.center = b.center0 + S[i].dp
                            if S[i].dAngle != 0 {
                                b.angle = b.angle0 + S[i].dAngle
                                b.q = Rotation(angle: b.angle)
                            }
                            b.origin = b.center - b.q.rotate(b.localCenter)
                            b.force = .zero
                            b.torque = 0
                            B[i] = b
                        }
                    }
                }
            }
        }
    }

    /// The per-step constants of velocity integration for the bodies that move (computed with
    /// the same operations as inside the sub-step loop, so the same bits, but once per step).
    private func prepareMotions(_ B: UnsafeMutablePointer<Body>, h: Double, gravity: Vector2, items: [Int32]) {
        motions.removeAll(keepingCapacity: true)
        for i32 in items {
            let i = Int(i32)
            let invMass = B[i].invMass
            if invMass == 0 { continue }
            let dv = (h * invMass) * (B[i].force + (B[i].mass * B[i].gravityScale) * gravity)
            motions.append(BodyMotion(
                body: Int(i32), dv: dv, dw: h * B[i].invInertia * B[i].torque,
                linearDamping: 1 / (1 + h * B[i].linearDamping), angularDamping: 1 / (1 + h * B[i].angularDamping)))
        }
    }

    private func integrateVelocities(_ S: UnsafeMutablePointer<BodyState>, maxSpeedSquared: Double) {
        motions.withUnsafeBufferPointer { mp in
            for m in mp {
                var s = S[m.body]
                s.v = m.dv + m.linearDamping * s.v
                s.w = m.dw + m.angularDamping * s.w
                if s.v.lengthSquared > maxSpeedSquared {
                    s.v = PhysicsConstants.maxLinearSpeed * s.v.normalized
                }
                S[m.body] = s
            }
        }
    }

    private func integratePositions(_ S: UnsafeMutablePointer<BodyState>, h: Double) {
        motions.withUnsafeBufferPointer { mp in
            for m in mp {
                var s = S[m.body]
                s.dp += h * s.v
                let hw = h * s.w
                if hw != 0 {
                    let q = s.dq
                    let c = q.c - hw * q.s
                    let sn = q.s + hw * q.c
                    let invLength = 1 / (c * c + sn * sn).squareRoot()
                    s.dq = Rotation(c: c * invLength, s: sn * invLength)
                    s.dAngle += hw
                }
                S[m.body] = s
            }
        }
    }

    private func updateRest(_ dt: Double) {
        let linear = PhysicsConstants.restLinearSpeed * PhysicsConstants.restLinearSpeed
        let items = itemBodies
        bodies.withUnsafeMutableBufferPointer { bp in
            states.withUnsafeBufferPointer { sp in
                for i32 in items {
                    let i = Int(i32)
                    if bp[i].invMass == 0 { continue }
                    let s = sp[i]
                    if s.v.lengthSquared > linear || abs(s.w) > PhysicsConstants.restAngularSpeed {
                        bp[i].restTime = 0
                    } else {
                        bp[i].restTime += dt
                    }
                }
            }
        }
    }
}
