/// The prepare / warm-start / solve / relax / restitution passes of Box2D v3's soft step over
/// the contacts, scheduled into SIMD batches (`ContactSchedule`, `ContactBatch`). Every lane does
/// exactly the scalar operations of one contact, in an order that gives each body its impulses
/// in the schedule's order (contact order, or colour order where that fills the lanes), so the
/// result is bit for bit that of solving the contacts one by one in that order; the batches
/// only let independent contacts run side by side instead of waiting on each other.
struct ContactSolver {
    private(set) var schedule = ContactSchedule()
    private(set) var batches: [ContactBatch] = []
    /// The contact and static softness of the prepared step.
    private var softness = (contact: Softness.rigid, static: Softness.rigid)
    private(set) var bounces: [BatchBounce] = []
    private(set) var solveData: [BatchSolve] = []
    /// The restitution pass's scratch: the batches that may bounce (`BounceCandidates`), room
    /// for every batch (kept between steps: 4 bytes a batch).
    private let bounceCandidates = StepBuffer<Int32>()
    private var masses: [SIMD2<Double>] = []
    /// Each body's friction and restitution, from which the fill mixes a contact's (the contact
    /// records do not carry them).
    private var materials: [SIMD2<Double>] = []
    /// Each body's centre of mass, from which the fill takes a contact point's anchors.
    private var centers: [Vector2] = []
    /// The code that runs the solve and relax passes (all kernels give the same bits; tests
    /// switch it to compare them).
    var kernel = ContactKernel.preferred
    /// How far ahead of the solve pass the warm start may run in a fused sweep.
    private var reach = WarmStartReach()
    /// The schedule build `reach` was computed for (a function of the slots, the contacts'
    /// bodies and which bodies move, as the schedule is): a kept schedule keeps its reach.
    private var reachBuild = -1
    /// How many contacts the batches were filled for.
    private(set) var preparedCount = 0

    /// Schedules the contacts (`keys`: their pair keys, `keysVersion`: changed whenever they
    /// change, nil when unknown) and fills the batches for one step: lever arms, effective
    /// masses, approach speeds (for restitution) and last step's impulses (warm starting); the
    /// softness of the step is kept for the passes.
    mutating func prepare(
        _ contacts: UnsafeBufferPointer<ContactConstraint>, keys: UnsafeBufferPointer<UInt64>, keysVersion: Int? = nil,
        bodies: UnsafePointer<Body>, materials bodyMaterials: UnsafePointer<BodyMaterial>, bodyCount: Int,
        states: UnsafePointer<BodyState>, contactSoftness: Softness, staticSoftness: Softness
    ) {
        let width = Lanes.scalarCount
        softness = (contactSoftness, staticSoftness)
        loadBodies(bodies, bodyMaterials, count: bodyCount)
        masses.withUnsafeBufferPointer { mp in
            schedule.build(contacts: contacts, keys: keys, keysVersion: keysVersion, masses: mp, width: width)
        }
        let batchCount = schedule.slots.count / width
        preparedCount = contacts.count
        batches.setCount(batchCount, filler: ContactBatch())
        // Fresh for the step (`endStep` releases them) and left unset, or kept from the last
        // step by a small scene: the fill writes every field of every lane, as in the batches.
        let keep = keepsScratch
        ContactSolver.size(&bounces, batchCount, keep: keep, filler: BatchBounce())
        ContactSolver.size(&solveData, batchCount, keep: keep, filler: BatchSolve())
        // Batch by batch, every lane written (unused lanes and missing second points as zeros):
        // sequential stores, and the contacts are read almost in order (the schedule is a sweep).
        let kernel = self.kernel
        batches.withUnsafeMutableBufferPointer { bp in
            bounces.withUnsafeMutableBufferPointer { bb in solveData.withUnsafeMutableBufferPointer { sd in
                schedule.slots.withUnsafeBufferPointer { slots in
                    masses.withUnsafeBufferPointer { mp in materials.withUnsafeBufferPointer { fp in
                      centers.withUnsafeBufferPointer { cp in
                        // The C kernels fill four lanes at a time (the same operations per lane).
                        if let b = bp.baseAddress, let d = sd.baseAddress, let o = bb.baseAddress,
                           let sl = slots.baseAddress, let c = contacts.baseAddress, let m = mp.baseAddress,
                           let f = fp.baseAddress, let z = cp.baseAddress,
                           kernel.runFill(b, d, o, count: batchCount, slots: sl, contacts: c,
                                          bodies: (masses: m, materials: f, centers: z), states: states) {
                            return
                        }
                        for n in 0..<batchCount {
                            for l in 0..<width {
                                let k = Int(slots[n * width + l])
                                if k < 0 {
                                    ContactSolver.clear(&bp[n], &sd[n], &bb[n], lane: l)
                                } else {
                                    ContactSolver.fill(&bp[n], &sd[n], &bb[n], lane: l, contacts[k], masses: mp,
                                                       materials: fp, centers: cp, states: states)
                                }
                            }
                        }
                      }
                    } }
                }
            } }
        }
        releaseFillCopies()
        buildReachIfScheduleChanged(keys: keys, contacts: contacts, width: width)
    }

    /// Builds the warm start's reach for the schedule, unless it was built for this schedule
    /// already (39 000 instructions a step on the base-20 pyramid, whose schedule is built once).
    private mutating func buildReachIfScheduleChanged(keys: UnsafeBufferPointer<UInt64>,
                                                      contacts: UnsafeBufferPointer<ContactConstraint>, width: Int) {
        if reachBuild == schedule.buildCount { return }
        reachBuild = schedule.buildCount
        schedule.slots.withUnsafeBufferPointer { slots in
            masses.withUnsafeBufferPointer { mp in
                reach.build(slots: slots, width: width, keys: keys, contacts: contacts, masses: mp)
            }
        }
    }

    /// Copies what the schedule and the fill read of each body side by side (they read it once
    /// per contact): inverse mass and inertia, friction and restitution (from the body's entry
    /// in `bodyMaterials`), centre of mass.
    private mutating func loadBodies(_ bodies: UnsafePointer<Body>, _ bodyMaterials: UnsafePointer<BodyMaterial>,
                                     count: Int) {
        masses.setCountUnset(count, filler: .zero)  // each written below
        materials.setCountUnset(count, filler: .zero)
        centers.setCountUnset(count, filler: .zero)
        masses.withUnsafeMutableBufferPointer { mp in
            materials.withUnsafeMutableBufferPointer { fp in
                centers.withUnsafeMutableBufferPointer { cp in
                    for i in 0..<count {
                        mp[i] = SIMD2(bodies[i].invMass, bodies[i].invInertia)
                        let m = bodyMaterials + Int(bodies[i].material)
                        fp[i] = SIMD2(m.pointee.friction, m.pointee.restitution)
                        cp[i] = bodies[i].center
                    }
                }
            }
        }
    }

    /// Gives back the bodies' materials and centres, which only the fill reads: released before
    /// the sub-steps, the step's next allocations (the bodies' motions) reuse their memory
    /// instead of adding to the peak (160 kB on the 5050-box pyramid). A small step keeps them.
    private mutating func releaseFillCopies() {
        if keepsScratch { return }
        materials = []
        centers = []
    }

    /// Up to this many batches (about 1 000 contacts) and four times as many bodies a step keeps
    /// its solve and bounce records, inverse masses and the fill's per-body copies for the next
    /// step (at most 330 kB): on a small scene allocating and releasing them every step costs
    /// more than the memory is worth (7 of the base-10 pyramid's 8 array allocations a step).
    /// Larger steps release them, so that they do not add to the memory peak.
    static let keptScratchBatches = 256

    /// Whether this step's scratch is small enough to keep (`keptScratchBatches`).
    private var keepsScratch: Bool {
        batches.count <= ContactSolver.keptScratchBatches && masses.count <= 4 * ContactSolver.keptScratchBatches
    }

    /// Sets `records` to `count` elements whose contents the fill overwrites: the kept storage,
    /// resized, when `keep` (a small step); else fresh and left unset (`endStep` released them).
    private static func size<T>(_ records: inout [T], _ count: Int, keep: Bool, filler: T) {
        if keep {
            records.setCount(count, filler: filler)
        } else {
            records = [T](unsafeUninitializedCapacity: count) { _, n in n = count }
        }
    }

    /// Releases the step's solve and bounce records and the inverse masses once the step's
    /// passes are done (the batches stay: their impulses warm-start the next step). They are
    /// 1.4 MB on the 5050-box pyramid; released, their memory serves what the frame allocates
    /// after its steps (its contact events) instead of adding to the peak.
    mutating func endStep() {
        if keepsScratch { return }
        solveData = []
        bounces = []
        masses = []
    }

    /// One lane of a `BatchPoint`, as scalars.
    private struct PointLane {
        var normalArmA = 0.0, normalArmB = 0.0, tangentArmA = 0.0, tangentArmB = 0.0
        var baseSeparation = 0.0, normalMass = 0.0, tangentMass = 0.0, relativeVelocity = 0.0
        var normalImpulse = 0.0, tangentImpulse = 0.0

        @inline(__always) func store(_ p: inout BatchPoint, _ q: inout PointSolve, _ l: Int) {
            setLane(&p.normalArmA, l, normalArmA)
            setLane(&p.normalArmB, l, normalArmB)
            setLane(&p.tangentArmA, l, tangentArmA)
            setLane(&p.tangentArmB, l, tangentArmB)
            setLane(&p.normalImpulse, l, normalImpulse)
            setLane(&p.tangentImpulse, l, tangentImpulse)
            setLane(&q.baseSeparation, l, baseSeparation)
            setLane(&q.normalMass, l, normalMass)
            setLane(&q.tangentMass, l, tangentMass)
            setLane(&q.maxNormalImpulse, l, 0)
        }
    }

    /// An unused lane: the static ground on both sides, zero masses, nothing to apply.
    @inline(__always)
    private static func clear(_ batch: inout ContactBatch, _ solve: inout BatchSolve, _ bounce: inout BatchBounce,
                              lane l: Int) {
        batch.indexA[l] = 0
        batch.indexB[l] = 0
        setLane(&batch.normalX, l, 0)
        setLane(&batch.normalY, l, 0)
        setLane(&solve.friction, l, 0)
        setLane(&bounce.restitution, l, 0)
        setLane(&bounce.relativeVelocity1, l, 0)
        setLane(&bounce.relativeVelocity2, l, 0)
        setLane(&solve.coupling12, l, 0)
        setLane(&solve.coupling21, l, 0)
        setLane(&solve.blockScale, l, 1)
        PointLane().store(&batch.p1, &solve.p1, l)
        PointLane().store(&batch.p2, &solve.p2, l)
        // Set, as in the C fill: the lane has only zeros and body 0 (never stored), so the
        // unmasked copy of the batch code serves part-empty batches too (ContactBatch.hasP2).
        batch.hasP2[l] = true
    }

    @inline(__always)
    private static func fill(
        _ batch: inout ContactBatch, _ solve: inout BatchSolve, _ bounce: inout BatchBounce, lane l: Int,
        _ c: ContactConstraint, masses: UnsafeBufferPointer<SIMD2<Double>>, materials: UnsafeBufferPointer<SIMD2<Double>>,
        centers: UnsafeBufferPointer<Vector2>, states: UnsafePointer<BodyState>
    ) {
        let mA = masses[c.a].x, iA = masses[c.a].y
        let mB = masses[c.b].x, iB = masses[c.b].y
        batch.indexA[l] = Int32(c.a)
        batch.indexB[l] = Int32(c.b)
        setLane(&batch.normalX, l, c.normal.x)
        setLane(&batch.normalY, l, c.normal.y)
        // Mixed as Box2D mixes them: the geometric mean of the frictions, the larger restitution.
        setLane(&solve.friction, l, (materials[c.a].x * materials[c.b].x).squareRoot())
        setLane(&bounce.restitution, l, max(materials[c.a].y, materials[c.b].y))
        let normal = c.normal, tangent = normal.rightPerpendicular
        let vA = states[c.a].v, wA = states[c.a].w
        let vB = states[c.b].v, wB = states[c.b].w
        @inline(__always) func point(_ cp: ContactPoint) -> PointLane {
            let rA = cp.point - centers[c.a], rB = cp.point - centers[c.b]
            var p = PointLane()
            p.baseSeparation = cp.separation - (rB - rA).dot(normal)
            let rnA = rA.cross(normal), rnB = rB.cross(normal)
            let kNormal = mA + mB + iA * rnA * rnA + iB * rnB * rnB
            p.normalMass = kNormal > 0 ? 1 / kNormal : 0
            let rtA = rA.cross(tangent), rtB = rB.cross(tangent)
            (p.normalArmA, p.normalArmB, p.tangentArmA, p.tangentArmB) = (rnA, rnB, rtA, rtB)
            let kTangent = mA + mB + iA * rtA * rtA + iB * rtB * rtB
            p.tangentMass = kTangent > 0 ? 1 / kTangent : 0
            let vrA = vA + crossSV(wA, rA)
            let vrB = vB + crossSV(wB, rB)
            p.relativeVelocity = normal.dot(vrB - vrA)
            p.normalImpulse = cp.normalImpulse
            p.tangentImpulse = cp.tangentImpulse
            return p
        }
        let p1 = point(c.p0)
        p1.store(&batch.p1, &solve.p1, l)
        setLane(&bounce.relativeVelocity1, l, p1.relativeVelocity)
        let two = c.pointCount > 1
        var p2 = two ? point(c.p1) : PointLane()
        let coupling = two ? ContactSolver.coupling(p1, &p2, mA: mA, iA: iA, mB: mB, iB: iB) : (c12: 0, c21: 0, scale: 1)
        setLane(&solve.coupling12, l, coupling.c12)
        setLane(&solve.coupling21, l, coupling.c21)
        setLane(&solve.blockScale, l, coupling.scale)
        p2.store(&batch.p2, &solve.p2, l)
        batch.hasP2[l] = two
        setLane(&bounce.relativeVelocity2, l, p2.relativeVelocity)
    }

    /// The coupling of a two-point manifold's normal impulses for the block solve: the normal
    /// mass matrix K = [k11 k12; k12 k22] as k12/k11, k12/k22 and k11 k22/det K. A matrix near
    /// singular (two points almost in one place: det K below 1/1000 of k11 k22, Box2D v2's
    /// condition limit) gives no safe block solve; the contact then pushes at its first point
    /// only, as Box2D v2 does, and the second point keeps no impulse.
    /// It reads the arms and normal masses as the batch stores them (rounded to `Float`), as
    /// the C fill reads them back from the batch.
    @inline(__always)
    private static func coupling(_ p1: PointLane, _ p2: inout PointLane, mA: Double, iA: Double, mB: Double,
                                 iB: Double) -> (c12: Double, c21: Double, scale: Double) {
        let k12 = mA + mB + iA * narrowed(p1.normalArmA) * narrowed(p2.normalArmA)
            + iB * narrowed(p1.normalArmB) * narrowed(p2.normalArmB)
        let c12 = k12 * narrowed(p1.normalMass), c21 = k12 * narrowed(p2.normalMass)
        let det = 1 - c12 * c21
        if det > PhysicsConstants.blockConditionLimit { return (c12, c21, 1 / det) }
        p2.normalMass = 0
        p2.normalImpulse = 0
        p2.tangentImpulse = 0
        return (0, 0, 1)
    }

    /// Applies last step's impulses at the start of a sub-step (when it is not fused with the
    /// solve pass): with a C kernel four lanes at a time, else lane by lane in scalar code
    /// (`warmStartPass`; an impulse from stored values does not depend on any velocity, so
    /// there are no long chains to overlap, and scalar code needs fewer instructions than
    /// Swift's lane version on baseline x86-64). Lanes of a batch write disjoint bodies, so
    /// both give the same bits.
    mutating func warmStart(_ states: UnsafeMutablePointer<BodyState>) {
        let kernel = self.kernel
        batches.withUnsafeBufferPointer { bp in masses.withUnsafeBufferPointer { mp in
            if let b = bp.baseAddress, kernel.runWarmStart(b, count: bp.count, states, masses: mp.baseAddress!) {
                return
            }
            ContactSolver.warmStartPass(bp, states, masses: mp.baseAddress!)
        } }
    }

    /// The warm start of `warmStart` over the given batches, lane by lane in scalar code: unused
    /// lanes and missing second points are skipped, static sides are not stored.
    static func warmStartPass(_ bp: UnsafeBufferPointer<ContactBatch>, _ states: UnsafeMutablePointer<BodyState>,
                              masses: BodyMasses) {
        guard let base = bp.baseAddress else { return }
        for n in 0..<bp.count {
            let c = base + n
            for l in 0..<Lanes.scalarCount {
                let a = Int(c.pointee.indexA[l]), b = Int(c.pointee.indexB[l])
                let mA = masses[a].x, mB = masses[b].x
                if mA == 0 && mB == 0 { continue }  // an unused lane (a contact has a moving side)
                let iA = masses[a].y, iB = masses[b].y
                let nx = Double(c.pointee.normalX[l]), ny = Double(c.pointee.normalY[l])
                var vA = states[a].v, wA = states[a].w
                var vB = states[b].v, wB = states[b].w
                @inline(__always) func apply(_ ni: Double, _ ti: Double, _ nArmA: Double, _ tArmA: Double,
                                             _ nArmB: Double, _ tArmB: Double) {
                    let px = ni * nx + ti * ny
                    let py = ni * ny - ti * nx
                    vA.x -= mA * px
                    vA.y -= mA * py
                    // rA × (ni n + ti t) = ni (rA × n) + ti (rA × t).
                    wA -= iA * (ni * nArmA + ti * tArmA)
                    vB.x += mB * px
                    vB.y += mB * py
                    wB += iB * (ni * nArmB + ti * tArmB)
                }
                let p1 = c.pointee.p1, p2 = c.pointee.p2
                apply(p1.normalImpulse[l], p1.tangentImpulse[l], Double(p1.normalArmA[l]), Double(p1.tangentArmA[l]),
                      Double(p1.normalArmB[l]), Double(p1.tangentArmB[l]))
                if c.pointee.hasP2[l] {
                    apply(p2.normalImpulse[l], p2.tangentImpulse[l], Double(p2.normalArmA[l]), Double(p2.tangentArmA[l]),
                          Double(p2.normalArmB[l]), Double(p2.tangentArmB[l]))
                }
                if mA > 0 {
                    states[a].v = vA
                    states[a].w = wA
                }
                if mB > 0 {
                    states[b].v = vB
                    states[b].w = wB
                }
            }
        }
    }

    /// One pass of soft contact impulses: with `useBias` the solve (soft push-out of overlap),
    /// without it the relax pass that removes the push-out velocity; `reversed` sweeps the
    /// batches last to first, which is the schedule's sequential order reversed (the schedule
    /// keeps each body's contacts in its order).
    mutating func solve(_ states: UnsafeMutablePointer<BodyState>, invH: Double, useBias: Bool,
                        reversed: Bool = false) {
        let softness = self.softness
        var solveData = self.solveData
        self.solveData = []  // unique while the pass writes it
        let kernel = self.kernel
        batches.withUnsafeMutableBufferPointer { bp in solveData.withUnsafeMutableBufferPointer { sd in
            masses.withUnsafeBufferPointer { mp in
                let m = mp.baseAddress!
                if let b = bp.baseAddress, let d = sd.baseAddress,
                   kernel.runPass(b, d, count: bp.count, states, softness: softness, invH: invH, useBias: useBias,
                                  reversed: reversed, masses: m) {
                    return
                }
                // Two copies of the loop, each with `useBias` a constant.
                if useBias {
                    ContactSolver.solvePass(bp, sd, states, softness, invH: invH, useBias: true, reversed: reversed,
                                            masses: m)
                } else {
                    ContactSolver.solvePass(bp, sd, states, softness, invH: invH, useBias: false, reversed: reversed,
                                            masses: m)
                }
            }
        } }
        self.solveData = solveData
    }

    /// The warm start and then the solve pass (`useBias`), as `warmStart` followed by `solve`
    /// give them, bit for bit; the C kernels run both in one sweep over the batches (see
    /// `WarmStartReach`). Only when nothing acts on the bodies between the two (no joints).
    mutating func warmStartAndSolve(_ states: UnsafeMutablePointer<BodyState>, invH: Double) {
        let softness = self.softness
        let kernel = self.kernel
        var solveData = self.solveData
        self.solveData = []  // unique while the pass writes it
        let fused = batches.withUnsafeMutableBufferPointer { bp in solveData.withUnsafeMutableBufferPointer { sd in
            reach.warmedBy.withUnsafeBufferPointer { wb in masses.withUnsafeBufferPointer { mp in
                guard let b = bp.baseAddress, let d = sd.baseAddress, let w = wb.baseAddress, let m = mp.baseAddress,
                      wb.count == bp.count else {
                    return false
                }
                return kernel.runWarmStartAndSolve(b, d, count: bp.count, states, softness: softness, invH: invH,
                                                   warmedBy: w, masses: m)
            } }
        } }
        self.solveData = solveData
        if !fused {
            warmStart(states)
            solve(states, invH: invH, useBias: true)
        }
    }

    @inline(__always)
    static func solvePass(_ bp: UnsafeMutableBufferPointer<ContactBatch>, _ sd: UnsafeMutableBufferPointer<BatchSolve>,
                                  _ states: UnsafeMutablePointer<BodyState>,
                                  _ softness: (contact: Softness, static: Softness), invH: Double, useBias: Bool,
                                  reversed: Bool = false, masses: BodyMasses) {
        let soft = SoftLanes(contact: softness.contact, static: softness.static, invH: invH,
                             maxPush: Lanes(repeating: -PhysicsConstants.contactPushMaxVelocity),
                             overRelaxation: Lanes(repeating: PhysicsConstants.relaxOverRelaxation), useBias: useBias,
                             masses: masses)
        for i in 0..<bp.count {
            let n = reversed ? bp.count - 1 - i : i
            // One copy of the batch code per case, each with `masked` a constant.
            if all(bp[n].hasP2) {
                solveBatch(&bp[n], &sd[n], states, soft: soft, masked: false)
            } else {
                solveBatch(&bp[n], &sd[n], states, soft: soft, masked: true)
            }
        }
    }

    /// Bounces: points that approached faster than the threshold and pushed during the step get
    /// the normal velocity -restitution x approach speed; when both points of a contact bounce
    /// they are solved together (`blockIncrements`), so a flat landing bounces flat.
    mutating func restitution(_ states: UnsafeMutablePointer<BodyState>) {
        let approach = -PhysicsConstants.restitutionThreshold, threshold = Lanes(repeating: approach)
        let bounces = self.bounces
        var solveData = self.solveData
        self.solveData = []  // unique while the pass writes it
        bounceCandidates.setCountUnset(batches.count)
        let kernel = self.kernel, picked = bounceCandidates.base
        batches.withUnsafeMutableBufferPointer { bp in solveData.withUnsafeMutableBufferPointer { sd in
            bounces.withUnsafeBufferPointer { bb in masses.withUnsafeBufferPointer { mp in
                // With a C kernel only the batches its test picks (the same test as below), else all.
                let pickedCount = BounceCandidates.find(kernel: kernel, bb, sd, bp,
                                                        threshold: approach, into: picked)
                for i in 0..<(pickedCount ?? bp.count) {
                    let n = pickedCount == nil ? i : Int(picked[i])
                    let bouncy = wide(bb[n].restitution) .!= 0
                    let bounce1 = bouncy .& .!(wide(bb[n].relativeVelocity1) .> threshold)
                        .& (sd[n].p1.maxNormalImpulse .!= 0)
                    let bounce2 = bouncy .& bp[n].hasP2 .& .!(wide(bb[n].relativeVelocity2) .> threshold)
                        .& (sd[n].p2.maxNormalImpulse .!= 0)
                    if !any(bounce1 .| bounce2) { continue }
                    ContactSolver.bounceBatch(&bp[n], &sd[n], bb[n], bounce1, bounce2, states, mp.baseAddress!)
                }
            } }
        } }
        self.solveData = solveData
    }

    /// The bounces of one batch, in the lanes of `bounce1` and `bounce2` only (the others are
    /// left exactly as they were, impulses included).
    @inline(__always)
    private static func bounceBatch(_ c: inout ContactBatch, _ d: inout BatchSolve, _ o: BatchBounce,
                                    _ bounce1: LaneMask, _ bounce2: LaneMask, _ states: UnsafeMutablePointer<BodyState>,
                                    _ masses: BodyMasses) {
        let indexA = c.indexA, indexB = c.indexB
        var A = LaneBodies(states, indexA)
        var B = LaneBodies(states, indexB)
        let normal = Normal(x: wide(c.normalX), y: wide(c.normalY))
        let m = Masses(c, masses)
        let arms1 = PointArms(c.p1, m), arms2 = PointArms(c.p2, m)
        let linear = linearNormalVelocity(A, B, normal)
        let restitution = wide(o.restitution)
        let u1 = (-wide(d.p1.normalMass) * ((linear + angularNormalVelocity(A, B, arms1))
            + restitution * wide(o.relativeVelocity1))).replacing(with: 0, where: .!bounce1)
        let u2 = (-wide(d.p2.normalMass) * ((linear + angularNormalVelocity(A, B, arms2))
            + restitution * wide(o.relativeVelocity2))).replacing(with: 0, where: .!bounce2)
        // Coupled only where both bounce; a point that does not bounce keeps its impulse.
        let single = .!(bounce1 .& bounce2)
        let coupling = Coupling(c12: wide(d.coupling12).replacing(with: 0, where: single),
                                c21: wide(d.coupling21).replacing(with: 0, where: single),
                                scale: wide(d.blockScale).replacing(with: 1, where: single))
        var (j1, j2) = blockIncrements(u1, u2, c.p1.normalImpulse, c.p2.normalImpulse, coupling)
        j1.replace(with: 0, where: .!bounce1)
        j2.replace(with: 0, where: .!bounce2)
        let before = (c.p1.normalImpulse, c.p2.normalImpulse, d.p1.maxNormalImpulse, d.p2.maxNormalImpulse)
        applyNormalPair(j1, j2, &c, &d, arms1, arms2, &A, &B, m, bounce1 .| bounce2, masked: true)
        c.p1.normalImpulse.replace(with: before.0, where: .!bounce1)
        c.p2.normalImpulse.replace(with: before.1, where: .!bounce2)
        d.p1.maxNormalImpulse.replace(with: before.2, where: .!bounce1)
        d.p2.maxNormalImpulse.replace(with: before.3, where: .!bounce2)
        A.store(states, indexA, invMass: m.mA)
        B.store(states, indexB, invMass: m.mB)
    }
}
