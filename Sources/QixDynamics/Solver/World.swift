/// The rigid-body world: bodies, joints and contacts advanced by Box2D v3's soft step
/// (sub-stepping, soft contacts, warm starting, relaxation, restitution) plus continuous
/// collision of fast bodies against static shapes and, when they move far enough,
/// against moving ones. Everything runs in creation order.
///
/// The stored properties the step reads and writes skip the runtime's dynamic exclusivity check
/// (`@exclusivity(unchecked)`): the step made some 80 such accesses, about 70 instructions each
/// (1.3 % of the base-10 pyramid's step). No two accesses of one property overlap: the checks,
/// on in every build until then, never fired.
final class World {
    @exclusivity(unchecked) var bodies: [Body] = []
    /// The materials the bodies point at (`Body.material`), each once, and where each is.
    @exclusivity(unchecked) var materials = [BodyMaterial()]
    var materialIndex = [BodyMaterial(): Int32(0)]
    @exclusivity(unchecked) var states: [BodyState] = []
    /// The bodies' shapes in their own frames, shared by bodies with the same shape
    /// (`World+Shapes`), and the starts of the last few distinct shapes added.
    @exclusivity(unchecked) var vertices: [Vector2] = []
    @exclusivity(unchecked) var normals: [Vector2] = []
    var recentShapes: [Int] = []
    /// How many vertices the bodies' placed shapes take in all (each body its own range).
    @exclusivity(unchecked) private(set) var placedCount = 0
    /// Every body's shape placed in the world at the start of the current step, from
    /// `Body.placedStart` (buffers the narrow phase reads through their base pointers).
    let placedVertices = StepBuffer<Vector2>()
    let placedNormals = StepBuffer<Vector2>()
    /// The narrow phase's copy of each body (`Collider`), set with the placed shapes.
    let colliders = StepBuffer<Collider>()
    @exclusivity(unchecked) var joints: [Joint] = []
    @exclusivity(unchecked) var contacts: [ContactConstraint] = []
    /// The pair keys of `contacts`, and those of the touching ones, in contact order (written
    /// by the narrow phase).
    @exclusivity(unchecked) var contactKeys: [UInt64] = []
    /// Which of `contacts` touch, one bit each (bit k of word k / 64), and how many: the keys of
    /// the touching ones are `contactKeys` at those bits (a bit a contact instead of a key,
    /// 120 kB less on the 5050-box pyramid).
    @exclusivity(unchecked) var touchingContacts: [UInt64] = []
    @exclusivity(unchecked) var touchingCount = 0
    /// Set when a step's touching contacts are not the step before's (other keys, or in another
    /// order); the animator clears it at the start of each frame.
    @exclusivity(unchecked) var touchingChanged = false
    /// Changes whenever `contactKeys` does (the narrow phase compares each key with last step's
    /// at the same index): what the contact schedule was built from is checked against it
    /// instead of against a copy of the keys.
    @exclusivity(unchecked) var contactKeysVersion = 0
    /// Whether a key may occur twice in `contactKeys` (`BroadPhase.pairsMayRepeat`).
    @exclusivity(unchecked) var contactKeysMayRepeat = false
    /// The feature ids and point count of `contacts` (id0, id1, count, 0), and last step's: the
    /// warm-start match reads these 16 bytes instead of three cache lines of the old record.
    @exclusivity(unchecked) var contactPointIDs = StepBuffer<SIMD4<UInt32>>()
    @exclusivity(unchecked) var oldContactPointIDs = StepBuffer<SIMD4<UInt32>>()
    let broadPhase = BroadPhase()
    /// This step's candidate pairs.
    @exclusivity(unchecked) var pairs: [SIMD2<Int32>] = []
    @exclusivity(unchecked) var contactSolver = ContactSolver()
    /// The narrow phase's box-against-box manifolds (C lanes; scratch space kept between steps).
    @exclusivity(unchecked) var boxManifolds = BoxManifolds()
    @exclusivity(unchecked) private var motions: [BodyMotion] = []
    /// The positions in `motions` of the bodies past the speed limit in a sub-step's velocity
    /// integration (C kernels: `BodyIntegration`), room for every motion.
    private let overSpeed = StepBuffer<Int32>()
    /// Each material's linear (x) and angular (y) damping factor for the step's sub-steps.
    @exclusivity(unchecked) private var dampingFactors: [SIMD2<Double>] = []
    /// Item bodies (dynamic or anchored, enabled), ascending.
    @exclusivity(unchecked) private(set) var itemBodies: [Int32] = []
    @exclusivity(unchecked) private(set) var boundaryBodies: [Int32] = []
    /// Broad-phase grid cell: the largest item plus both speculative margins.
    @exclusivity(unchecked) var cellSize = 100.0
    @exclusivity(unchecked) private var listsValid = false
    /// World gravity (points/s^2) for bodies whose gravityScale is 1.
    @exclusivity(unchecked) var gravity = Vector2.zero
    /// Sub-steps per 1/120 s step.
    @exclusivity(unchecked) var substepCount = PhysicsConstants.substepCount
    /// Whether the next sub-step sweeps its solve pass backwards (last contact to first) and
    /// its relax pass forwards; toggled every sub-step (`substep`).
    @exclusivity(unchecked) private var backwardSolveNext = false
    /// Whether fast bodies get continuous collision (against static shapes, and the fastest
    /// against moving items).
    @exclusivity(unchecked) var continuousCollision = true
    /// When set, the keys of touching pairs are appended here after every step.
    @exclusivity(unchecked) var trackTouching = false
    @exclusivity(unchecked) var touchingKeys: [UInt64] = []
    /// How many of `touchingKeys` each step appended, in step order.
    @exclusivity(unchecked) var touchingStepCounts: [Int] = []

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
        body.shapeStart = shapeStart(of: geometry)
        body.shapeCount = geometry.vertices.count
        body.placedStart = placedCount
        placedCount += geometry.vertices.count
        body.radius = geometry.radius
        body.innerRadius = geometry.innerRadius
        body.sweepExtent = geometry.vertices.reduce(0.0) { max($0, $1.length) }
        body.isStatic = isStatic
        bodies.append(body)
        states.append(BodyState())
        let index = bodies.count - 1
        updateMass(index, density: density)
        listsValid = false
        return index
    }

    /// Makes room for `count` more bodies, so that a scene's items fill each body array in one
    /// allocation (growing by doubling would leave up to half of the largest arrays unused: 1.6
    /// MB on the 5050-box pyramid). The shape arrays are not reserved: bodies of one shape share it.
    func reserveBodies(_ count: Int) {
        World.reserve(&bodies, more: count)
        World.reserve(&states, more: count)
    }

    /// Room for `more` elements: exactly that many when the array is short of them, but at least
    /// half its capacity again, so that bodies added a few at a time (a behavior per card) still
    /// grow the arrays geometrically rather than copying them on every addition.
    private static func reserve<Element>(_ array: inout [Element], more: Int) {
        let needed = array.count + more
        if needed > array.capacity { array.reserveCapacity(max(needed, array.capacity + array.capacity / 2)) }
    }

    /// Recomputes mass, inertia and centre of mass from density (mass 1 per 10 000 point^2 at density 1).
    func updateMass(_ index: Int, density: Double) {
        changeMaterial(of: index) { $0.density = density }
        var body = bodies[index]
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

    /// Appends the keys of the last step's touching contacts to `keys`, in contact order.
    func appendTouchingKeys(to keys: inout [UInt64]) {
        // Room made first (zeroes, a vectorized fill), then written through a pointer: an
        // `append` per key cost 15 instructions (its capacity and count updates), 6 this way.
        let start = keys.count
        keys.append(contentsOf: repeatElement(0, count: touchingCount))
        keys.withUnsafeMutableBufferPointer { out in contactKeys.withUnsafeBufferPointer { ck in
            touchingContacts.withUnsafeBufferPointer { bits in
                var n = start
                for w in 0..<bits.count {
                    var word = bits[w]
                    while word != 0 {
                        out[n] = ck[w << 6 | word.trailingZeroBitCount]
                        n += 1
                        word &= word - 1
                    }
                }
            }
        } }
    }

    /// Advances the world by `dt` seconds (one fixed step).
    func step(_ dt: Double) {
        if !listsValid { refreshLists() }
        updateBounds()
        findContacts()
        solve(dt)
        if continuousCollision { solveContinuous() }
        updateRest(dt)
        if trackTouching {
            appendTouchingKeys(to: &touchingKeys)
            touchingStepCounts.append(touchingCount)
        }
    }

    /// The soft step's solver stages, in Box2D v3's order (`b2SolverStage`): prepare contacts
    /// and joints, then per sub-step integrate velocities, warm start, solve, integrate
    /// positions and relax; then restitution, the rigid rods' position projection, and the
    /// bodies' new placements.
    private func solve(_ dt: Double) {
        let step = SolverStep(dt: dt, substepCount: substepCount)
        let gravity = self.gravity
        let items = itemBodies
        bodies.withUnsafeMutableBufferPointer { bp in
            states.withUnsafeMutableBufferPointer { sp in
                joints.withUnsafeMutableBufferPointer { jp in
                    let B = bp.baseAddress!, S = sp.baseAddress!
                    let js = JointSolver(bodies: B, states: S, h: step.h, invH: step.invH, jointSoftness: step.jointSoftness)
                    startDisplacements(B, S, count: bp.count)
                    prepareContacts(B, S, bodyCount: bp.count, step)
                    for k in 0..<jp.count { js.prepare(&jp[k]) }
                    prepareMotions(B, h: step.h, gravity: gravity, items: items)
                    for _ in 0..<substepCount { substep(S, jp, js, step) }
                    // Per step: released, so what the frame allocates next reuses it (a small
                    // scene keeps it, as the contact solver keeps its scratch).
                    if motions.count > 4 * ContactSolver.keptScratchBatches { motions = [] }
                    contactSolver.restitution(S)
                    contactSolver.endStep()
                    js.projectRods(jp)
                    finalizePlacements(B, S, items: items)
                }
            }
        }
    }

    /// The constants of one step's solve: the sub-step, the softness of contacts (between
    /// moving bodies, and stiffer against static ones) and of joints, and the speed limits.
    private struct SolverStep {
        let h: Double
        let invH: Double
        let contactSoftness: Softness
        let staticSoftness: Softness
        let jointSoftness: Softness
        let maxSpeedSquared: Double
        let maxAngularSpeed: Double

        init(dt: Double, substepCount: Int) {
            h = dt / Double(substepCount)
            invH = 1 / h
            let hertz = min(PhysicsConstants.contactHertz, PhysicsConstants.contactHertzRateLimit * invH)
            let jointHertz = min(PhysicsConstants.jointHertz, 0.5 * invH)
            contactSoftness = Softness.make(hertz: hertz, zeta: PhysicsConstants.contactDampingRatio, h: h)
            staticSoftness = Softness.make(hertz: 2 * hertz, zeta: PhysicsConstants.contactDampingRatio, h: h)
            jointSoftness = Softness.make(hertz: jointHertz, zeta: PhysicsConstants.jointDampingRatio, h: h)
            maxSpeedSquared = PhysicsConstants.maxLinearSpeed * PhysicsConstants.maxLinearSpeed
            maxAngularSpeed = min(PhysicsConstants.maxRotation * invH, PhysicsConstants.maxAngularSpeed)
        }
    }

    /// Zeroes every body's sub-step displacement and keeps its centre and angle at the start
    /// of the step (the solver works on displacements from them).
    private func startDisplacements(_ B: UnsafeMutablePointer<Body>, _ S: UnsafeMutablePointer<BodyState>, count: Int) {
        for i in 0..<count {
            S[i].dp = .zero
            S[i].dq = .identity
            S[i].dAngle = 0
            B[i].center0 = B[i].center
            B[i].angle0 = B[i].angle
        }
    }

    /// Puts this step's contacts into the solver's batches (masses, anchors, last step's impulses).
    private func prepareContacts(_ B: UnsafeMutablePointer<Body>, _ S: UnsafeMutablePointer<BodyState>, bodyCount: Int,
                                 _ step: SolverStep) {
        // `bodies` is being accessed through `B`: its count comes from the caller.
        let version = contactKeysVersion
        contacts.withUnsafeMutableBufferPointer { cp in contactKeys.withUnsafeBufferPointer { keys in
            materials.withUnsafeBufferPointer { mp in
                contactSolver.prepare(UnsafeBufferPointer(cp), keys: keys, keysVersion: version, bodies: B,
                                      materials: mp.baseAddress!, bodyCount: bodyCount, states: S,
                                      contactSoftness: step.contactSoftness, staticSoftness: step.staticSoftness)
            }
        } }
    }

    /// One sub-step: integrate velocities, warm start, solve (with push-out bias), integrate
    /// positions, relax (without bias); joints before contacts in each pass.
    ///
    /// The two contact passes sweep in opposite directions, and which goes backwards alternates
    /// from one sub-step to the next (counted over the world's life, so over two steps of 5
    /// sub-steps each direction comes first equally often). A Gauss-Seidel sweep always in
    /// contact order favours one side: at 5 sub-steps the base-100 pyramid's top box crept 62
    /// points sideways in 8 s, always the same way; alternated it stays within 3 points. The
    /// direction is a function of the sub-step count only, so the bits stay deterministic.
    @inline(__always)
    private func substep(_ S: UnsafeMutablePointer<BodyState>, _ joints: UnsafeMutableBufferPointer<Joint>,
                         _ js: JointSolver, _ step: SolverStep) {
        integrateVelocities(S, maxSpeedSquared: step.maxSpeedSquared, maxAngularSpeed: step.maxAngularSpeed)
        let backward = backwardSolveNext
        backwardSolveNext.toggle()
        if joints.isEmpty && !backward {
            // Nothing acts between the two: one sweep (same bits). The fused sweep warms up
            // batches ahead of the solve, so it only runs forwards.
            contactSolver.warmStartAndSolve(S, invH: step.invH)
        } else {
            for k in 0..<joints.count { js.warmStart(&joints[k]) }
            contactSolver.warmStart(S)
            for k in 0..<joints.count { js.solve(&joints[k], useBias: true) }
            contactSolver.solve(S, invH: step.invH, useBias: true, reversed: backward)
        }
        integratePositions(S, h: step.h)
        for k in 0..<joints.count { js.solve(&joints[k], useBias: false) }
        contactSolver.solve(S, invH: step.invH, useBias: false, reversed: !backward)
    }

    /// Moves every moving item to its centre and angle at the start of the step plus the
    /// step's displacement, and clears its applied force and torque.
    private func finalizePlacements(_ B: UnsafeMutablePointer<Body>, _ S: UnsafeMutablePointer<BodyState>,
                                    items: [Int32]) {
        if BodyPlacement.place(items: items, kernel: contactSolver.kernel, B, S) { return }
        // In place: a copy of the large Body record costs two memcpy calls per body.
        for i32 in items {
            let i = Int(i32)
            let b = B + i
            if b.pointee.invMass == 0 { continue }
            b.pointee.center = b.pointee.center0 + S[i].dp
            if S[i].dAngle != 0 {
                b.pointee.angle = b.pointee.angle0 + S[i].dAngle
                b.pointee.q = Rotation(angle: b.pointee.angle)
            }
            b.pointee.origin = b.pointee.center - b.pointee.q.rotate(b.pointee.localCenter)
            b.pointee.force = .zero
            b.pointee.torque = 0
        }
    }

    /// The per-step constants of velocity integration for the bodies that move (computed with
    /// the same operations as inside the sub-step loop, so the same bits, but once per step).
    private func prepareMotions(_ B: UnsafeMutablePointer<Body>, h: Double, gravity: Vector2, items: [Int32]) {
        // Room for every item, written through a pointer and cut to the moving ones: an append
        // per body checked the array's uniqueness and capacity (65 instructions a body, 25 now).
        // The last step's count stays until then, so a kept array is neither filled nor moved.
        motions.setCountUnset(items.count, filler: BodyMotion(body: 0, material: 0, dv: .zero, dw: 0))
        overSpeed.setCountUnset(items.count)
        // In place (no array allocated per step): one entry per material.
        dampingFactors.setCount(materials.count, filler: .zero)
        for (k, m) in materials.enumerated() {
            dampingFactors[k] = SIMD2(1 / (1 + h * m.linearDamping), 1 / (1 + h * m.angularDamping))
        }
        let moving = materials.withUnsafeBufferPointer { mp in motions.withUnsafeMutableBufferPointer { out in
            var n = 0
            for i32 in items {
                let i = Int(i32)
                let invMass = B[i].invMass
                if invMass == 0 { continue }
                let m = mp[Int(B[i].material)]
                let dv = (h * invMass) * (B[i].force + (B[i].mass * m.gravityScale) * gravity)
                out[n] = BodyMotion(body: i32, material: B[i].material, dv: dv, dw: h * B[i].invInertia * B[i].torque)
                n += 1
            }
            return n
        } }
        motions.removeLast(motions.count - moving)
    }

    private func integrateVelocities(_ S: UnsafeMutablePointer<BodyState>, maxSpeedSquared: Double, maxAngularSpeed: Double) {
        let function = BodyIntegration.velocities(for: contactSolver.kernel)
        motions.withUnsafeBufferPointer { mp in dampingFactors.withUnsafeBufferPointer { fp in
            if let function {
                // Four bodies at a time in C; the few past the speed limit are limited here.
                let over = BodyIntegration.integrateVelocities(function, mp, factors: fp.baseAddress!, S,
                                                               maxSpeedSquared: maxSpeedSquared,
                                                               maxAngularSpeed: maxAngularSpeed, over: overSpeed.base)
                for k in 0..<over {
                    let body = Int(mp[Int(overSpeed[k])].body)
                    S[body].v = World.limitSpeed(S[body].v)
                }
                return
            }
            for m in mp {
                let body = Int(m.body), f = fp[Int(m.material)]
                var s = S[body]
                s.v = m.dv + f.x * s.v
                s.w = m.dw + f.y * s.w
                if s.v.lengthSquared > maxSpeedSquared { s.v = World.limitSpeed(s.v) }
                if s.w * s.w > maxAngularSpeed * maxAngularSpeed {
                    s.w = s.w > 0 ? maxAngularSpeed : -maxAngularSpeed
                }
                S[body] = s
            }
        } }
    }

    /// `v` (whose v · v passed the limit) scaled to the largest linear speed.
    private static func limitSpeed(_ v: Vector2) -> Vector2 {
        // Past 1.3e154 points/s v·v overflows and `normalized` gives zero: the direction comes
        // from a copy scaled by 2^-600 then (finite speeds: same bits).
        let direction = v.lengthSquared.isFinite ? v : 0x1p-600 * v
        return PhysicsConstants.maxLinearSpeed * direction.normalized
    }

    private func integratePositions(_ S: UnsafeMutablePointer<BodyState>, h: Double) {
        let function = BodyIntegration.positions(for: contactSolver.kernel)
        motions.withUnsafeBufferPointer { mp in
            if let function {
                BodyIntegration.integratePositions(function, mp, S, h: h)
                return
            }
            for m in mp {
                let body = Int(m.body)
                var s = S[body]
                s.dp += h * s.v
                s.turn(by: h * s.w)
                S[body] = s
            }
        }
    }

    /// Whether body `i`'s placement and velocities are within the divergence bounds
    /// (`Divergence.isInside`), read through pointers (no bounds check per access).
    @inline(__always)
    func isInsideLimits(_ i: Int) -> Bool {
        bodies.withUnsafeBufferPointer { bp in states.withUnsafeBufferPointer { sp in
            Divergence.isInside(center: bp[i].origin, velocity: sp[i].v, angle: bp[i].angle, angularVelocity: sp[i].w)
        } }
    }

    /// Zeroes the velocity of every movable item body (they rest: the animator pauses).
    func stopMovableBodies() {
        for i32 in itemBodies where bodies[Int(i32)].invMass > 0 {
            states[Int(i32)].v = .zero
            states[Int(i32)].w = 0
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
