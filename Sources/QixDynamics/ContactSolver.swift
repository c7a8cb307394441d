/// The prepare / warm-start / solve / relax / restitution passes of Box2D v3's soft step over
/// the contacts, scheduled into SIMD batches (`ContactSchedule`, `ContactBatch`). Every lane does
/// exactly the scalar operations of one contact, in an order that gives each body its impulses
/// in contact order, so the result is bit for bit that of solving the contacts one by one; the
/// batches only let independent contacts run side by side instead of waiting on each other.
struct ContactSolver {
    private(set) var schedule = ContactSchedule()
    private(set) var batches: [ContactBatch] = []
    private var masses: [SIMD2<Double>] = []
    /// How many contacts the batches were filled for.
    private(set) var preparedCount = 0

    /// Schedules the contacts (`keys`: their pair keys) and fills the batches for one step:
    /// anchors, effective masses, softness, approach speeds (for restitution) and last step's
    /// impulses (warm starting).
    mutating func prepare(
        _ contacts: UnsafeBufferPointer<ContactConstraint>, keys: UnsafeBufferPointer<UInt64>, bodies: UnsafePointer<Body>,
        bodyCount: Int,
        states: UnsafePointer<BodyState>, contactSoftness: Softness, staticSoftness: Softness
    ) {
        let width = Lanes.scalarCount
        // Inverse masses side by side: the schedule and the fill read them once per contact.
        masses.setCount(bodyCount, filler: .zero)
        masses.withUnsafeMutableBufferPointer { mp in
            for i in 0..<bodyCount { mp[i] = SIMD2(bodies[i].invMass, bodies[i].invInertia) }
            schedule.build(contacts: contacts, keys: keys, masses: UnsafeBufferPointer(mp), width: width)
        }
        let batchCount = schedule.slots.count / width
        preparedCount = contacts.count
        batches.setCount(batchCount, filler: ContactBatch())
        // Batch by batch, every lane written (unused lanes and missing second points as zeros):
        // sequential stores, and the contacts are read almost in order (the schedule is a sweep).
        batches.withUnsafeMutableBufferPointer { bp in
            schedule.slots.withUnsafeBufferPointer { slots in
                masses.withUnsafeBufferPointer { mp in
                    for n in 0..<batchCount {
                        for l in 0..<width {
                            let k = Int(slots[n * width + l])
                            if k < 0 {
                                ContactSolver.clear(&bp[n], lane: l)
                            } else {
                                ContactSolver.fill(&bp[n], lane: l, contacts[k], masses: mp, states: states,
                                                   contactSoftness: contactSoftness, staticSoftness: staticSoftness)
                            }
                        }
                    }
                }
            }
        }
    }

    /// One lane of a `BatchPoint`, as scalars.
    private struct PointLane {
        var anchorA = Vector2.zero, anchorB = Vector2.zero
        var baseSeparation = 0.0, normalMass = 0.0, tangentMass = 0.0, relativeVelocity = 0.0
        var normalImpulse = 0.0, tangentImpulse = 0.0

        @inline(__always) func store(_ p: inout BatchPoint, _ l: Int) {
            setLane(&p.anchorAX, l, anchorA.x)
            setLane(&p.anchorAY, l, anchorA.y)
            setLane(&p.anchorBX, l, anchorB.x)
            setLane(&p.anchorBY, l, anchorB.y)
            setLane(&p.baseSeparation, l, baseSeparation)
            setLane(&p.normalMass, l, normalMass)
            setLane(&p.tangentMass, l, tangentMass)
            setLane(&p.normalImpulse, l, normalImpulse)
            setLane(&p.tangentImpulse, l, tangentImpulse)
            setLane(&p.maxNormalImpulse, l, 0)
            setLane(&p.relativeVelocity, l, relativeVelocity)
        }
    }

    /// An unused lane: the static ground on both sides, zero masses, nothing to apply.
    @inline(__always)
    private static func clear(_ batch: inout ContactBatch, lane l: Int) {
        batch.indexA[l] = 0
        batch.indexB[l] = 0
        setLane(&batch.invMassA, l, 0)
        setLane(&batch.invInertiaA, l, 0)
        setLane(&batch.invMassB, l, 0)
        setLane(&batch.invInertiaB, l, 0)
        setLane(&batch.normalX, l, 0)
        setLane(&batch.normalY, l, 0)
        setLane(&batch.friction, l, 0)
        setLane(&batch.restitution, l, 0)
        setLane(&batch.biasRate, l, 0)
        setLane(&batch.massScale, l, 0)
        setLane(&batch.impulseScale, l, 0)
        PointLane().store(&batch.p1, l)
        PointLane().store(&batch.p2, l)
        batch.hasP2[l] = false
    }

    @inline(__always)
    private static func fill(
        _ batch: inout ContactBatch, lane l: Int, _ c: ContactConstraint, masses: UnsafeBufferPointer<SIMD2<Double>>,
        states: UnsafePointer<BodyState>, contactSoftness: Softness, staticSoftness: Softness
    ) {
        let mA = masses[c.a].x, iA = masses[c.a].y
        let mB = masses[c.b].x, iB = masses[c.b].y
        let softness = (mA == 0 || mB == 0) ? staticSoftness : contactSoftness
        batch.indexA[l] = Int32(c.a)
        batch.indexB[l] = Int32(c.b)
        setLane(&batch.invMassA, l, mA)
        setLane(&batch.invInertiaA, l, iA)
        setLane(&batch.invMassB, l, mB)
        setLane(&batch.invInertiaB, l, iB)
        setLane(&batch.normalX, l, c.normal.x)
        setLane(&batch.normalY, l, c.normal.y)
        setLane(&batch.friction, l, c.friction)
        setLane(&batch.restitution, l, c.restitution)
        setLane(&batch.biasRate, l, softness.biasRate)
        setLane(&batch.massScale, l, softness.massScale)
        setLane(&batch.impulseScale, l, softness.impulseScale)
        let normal = c.normal, tangent = normal.rightPerpendicular
        let vA = states[c.a].v, wA = states[c.a].w
        let vB = states[c.b].v, wB = states[c.b].w
        @inline(__always) func point(_ cp: ContactPoint) -> PointLane {
            let rA = cp.anchorA, rB = cp.anchorB
            var p = PointLane(anchorA: rA, anchorB: rB)
            p.baseSeparation = cp.separation - (rB - rA).dot(normal)
            let rnA = rA.cross(normal), rnB = rB.cross(normal)
            let kNormal = mA + mB + iA * rnA * rnA + iB * rnB * rnB
            p.normalMass = kNormal > 0 ? 1 / kNormal : 0
            let rtA = rA.cross(tangent), rtB = rB.cross(tangent)
            let kTangent = mA + mB + iA * rtA * rtA + iB * rtB * rtB
            p.tangentMass = kTangent > 0 ? 1 / kTangent : 0
            let vrA = vA + crossSV(wA, rA)
            let vrB = vB + crossSV(wB, rB)
            p.relativeVelocity = normal.dot(vrB - vrA)
            p.normalImpulse = cp.normalImpulse
            p.tangentImpulse = cp.tangentImpulse
            return p
        }
        point(c.p0).store(&batch.p1, l)
        let two = c.pointCount > 1
        (two ? point(c.p1) : PointLane()).store(&batch.p2, l)
        batch.hasP2[l] = two
    }

    /// Applies last step's impulses at the start of a sub-step, lane by lane in scalar code: an
    /// impulse from stored values does not depend on any velocity, so there are no long chains
    /// to overlap, and scalar code needs about half the instructions of the lane version on
    /// baseline x86-64 (no gathers, transposes or spills). Each lane does exactly the operations
    /// of its SIMD lane; lanes of a batch write disjoint bodies, so going through them one by
    /// one gives the same bits; static sides and missing second points are skipped exactly as
    /// the lane version leaves them (nothing stored, nothing added).
    mutating func warmStart(_ states: UnsafeMutablePointer<BodyState>) {
        batches.withUnsafeMutableBufferPointer { bp in
            guard let base = bp.baseAddress else { return }
            for n in 0..<bp.count {
                let c = UnsafePointer(base + n)
                for l in 0..<Lanes.scalarCount {
                    let mA = c.pointee.invMassA[l], mB = c.pointee.invMassB[l]
                    if mA == 0 && mB == 0 { continue }  // an unused lane (a contact has a moving side)
                    let a = Int(c.pointee.indexA[l]), b = Int(c.pointee.indexB[l])
                    let iA = c.pointee.invInertiaA[l], iB = c.pointee.invInertiaB[l]
                    let nx = c.pointee.normalX[l], ny = c.pointee.normalY[l]
                    var vA = states[a].v, wA = states[a].w
                    var vB = states[b].v, wB = states[b].w
                    @inline(__always) func apply(_ ni: Double, _ ti: Double, _ rAx: Double, _ rAy: Double,
                                                 _ rBx: Double, _ rBy: Double) {
                        let px = ni * nx + ti * ny
                        let py = ni * ny + ti * (-nx)
                        vA.x -= mA * px
                        vA.y -= mA * py
                        wA -= iA * (rAx * py - rAy * px)
                        vB.x += mB * px
                        vB.y += mB * py
                        wB += iB * (rBx * py - rBy * px)
                    }
                    apply(c.pointee.p1.normalImpulse[l], c.pointee.p1.tangentImpulse[l], c.pointee.p1.anchorAX[l],
                          c.pointee.p1.anchorAY[l], c.pointee.p1.anchorBX[l], c.pointee.p1.anchorBY[l])
                    if c.pointee.hasP2[l] {
                        apply(c.pointee.p2.normalImpulse[l], c.pointee.p2.tangentImpulse[l], c.pointee.p2.anchorAX[l],
                              c.pointee.p2.anchorAY[l], c.pointee.p2.anchorBX[l], c.pointee.p2.anchorBY[l])
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
    }

    /// One pass of soft contact impulses: with `useBias` the solve (soft push-out of overlap),
    /// without it the relax pass that removes the push-out velocity.
    mutating func solve(_ states: UnsafeMutablePointer<BodyState>, invH: Double, useBias: Bool) {
        batches.withUnsafeMutableBufferPointer { bp in
            // Two copies of the loop, each with `useBias` a constant.
            if useBias {
                ContactSolver.solvePass(bp, states, invH: invH, useBias: true)
            } else {
                ContactSolver.solvePass(bp, states, invH: invH, useBias: false)
            }
        }
    }

    @inline(__always)
    private static func solvePass(_ bp: UnsafeMutableBufferPointer<ContactBatch>, _ states: UnsafeMutablePointer<BodyState>,
                                  invH: Double, useBias: Bool) {
        let soft = SoftLanes(biasRate: Lanes(), massScale: Lanes(), impulseScale: Lanes(), invH: invH,
                             maxPush: Lanes(repeating: -PhysicsConstants.contactPushMaxVelocity), useBias: useBias)
        for n in 0..<bp.count {
            // One copy of the batch code per case, each with `masked` a constant.
            if all(bp[n].hasP2) {
                solveBatch(&bp[n], states, soft: soft, masked: false)
            } else {
                solveBatch(&bp[n], states, soft: soft, masked: true)
            }
        }
    }

    @inline(__always)
    private static func solveBatch(_ c: inout ContactBatch, _ states: UnsafeMutablePointer<BodyState>, soft: SoftLanes,
                                   masked: Bool) {
        let indexA = c.indexA, indexB = c.indexB
        let normal = (x: c.normalX, y: c.normalY)
        // Current separations from the sub-step displacements (anchors are fixed for the step).
        let s1 = separation(&c.p1, indexA, indexB, normal, states)
        let s2 = separation(&c.p2, indexA, indexB, normal, states)
        var A = LaneBodies(states, indexA)
        var B = LaneBodies(states, indexB)
        let m = Masses(mA: c.invMassA, iA: c.invInertiaA, mB: c.invMassB, iB: c.invInertiaB)
        var soft = soft
        soft.biasRate = c.biasRate
        soft.massScale = c.massScale
        soft.impulseScale = c.impulseScale
        normalPoint(&c.p1, s1, &A, &B, normal, m, soft, c.hasP2, masked: false)
        normalPoint(&c.p2, s2, &A, &B, normal, m, soft, c.hasP2, masked: masked)
        let friction = c.friction
        frictionPoint(&c.p1, &A, &B, normal, m, friction, c.hasP2, masked: false)
        frictionPoint(&c.p2, &A, &B, normal, m, friction, c.hasP2, masked: masked)
        A.store(states, indexA, invMass: m.mA)
        B.store(states, indexB, invMass: m.mB)
    }

    /// The separation of a point after the bodies moved by their sub-step displacements.
    @inline(__always)
    private static func separation(
        _ p: inout BatchPoint, _ indexA: LaneIndices, _ indexB: LaneIndices, _ n: (x: Lanes, y: Lanes),
        _ states: UnsafeMutablePointer<BodyState>
    ) -> Lanes {
        var dx = Lanes(), dy = Lanes()
        for l in 0..<Lanes.scalarCount {
            let sA = states[Int(indexA[l])], sB = states[Int(indexB[l])]
            let rA = Vector2(p.anchorAX[l], p.anchorAY[l]), rB = Vector2(p.anchorBX[l], p.anchorBY[l])
            let d = (sB.dp - sA.dp) + (sB.dq.rotate(rB) - sA.dq.rotate(rA))
            dx[l] = d.x
            dy[l] = d.y
        }
        return (dx * n.x + dy * n.y) + p.baseSeparation
    }

    /// Inverse masses and inertias of both sides of a batch.
    struct Masses {
        var mA: Lanes, iA: Lanes, mB: Lanes, iB: Lanes
    }

    /// The soft-contact coefficients of a batch for one pass.
    struct SoftLanes {
        var biasRate: Lanes, massScale: Lanes, impulseScale: Lanes
        var invH: Double
        var maxPush: Lanes
        var useBias: Bool
    }

    @_transparent
    private static func normalPoint(
        _ p: inout BatchPoint, _ s: Lanes, _ A: inout LaneBodies, _ B: inout LaneBodies,
        _ n: (x: Lanes, y: Lanes), _ m: Masses, _ soft: SoftLanes, _ only: LaneMask, masked: Bool
    ) {
        let separated = s .> 0
        var bias = Lanes(), massScale = Lanes(repeating: 1), impulseScale = Lanes()
        if soft.useBias {
            bias = laneMax(soft.biasRate * s, soft.maxPush)
            massScale = soft.massScale
            impulseScale = soft.impulseScale
        }
        bias.replace(with: s * soft.invH, where: separated)
        massScale.replace(with: 1, where: separated)
        impulseScale.replace(with: 0, where: separated)
        let vn = ((B.vx + (-B.w) * p.anchorBY) - (A.vx + (-A.w) * p.anchorAY)) * n.x
            + ((B.vy + B.w * p.anchorBX) - (A.vy + A.w * p.anchorAX)) * n.y
        let impulse = -p.normalMass * massScale * (vn + bias) - impulseScale * p.normalImpulse
        applyNormalImpulse(impulse, &p, n, &A, &B, m, only, masked: masked)
    }

    @_transparent
    private static func frictionPoint(
        _ p: inout BatchPoint, _ A: inout LaneBodies, _ B: inout LaneBodies, _ n: (x: Lanes, y: Lanes),
        _ m: Masses, _ friction: Lanes, _ only: LaneMask, masked: Bool
    ) {
        // Tangent = normal turned right: (ny, -nx).
        let vt = ((B.vx + (-B.w) * p.anchorBY) - (A.vx + (-A.w) * p.anchorAY)) * n.y
            + ((B.vy + B.w * p.anchorBX) - (A.vy + A.w * p.anchorAX)) * (-n.x)
        let maxFriction = friction * p.normalImpulse
        let newImpulse = laneMin(laneMax(p.tangentImpulse + (-p.tangentMass * vt), -maxFriction), maxFriction)
        let impulse = newImpulse - p.tangentImpulse
        p.tangentImpulse = newImpulse
        apply(impulse * n.y, impulse * (-n.x), &p, &A, &B, m, only, masked: masked)
    }

    /// Accumulates a normal impulse, clamped so that the total never pulls (contacts only push),
    /// and applies the change to both bodies. Shared by the solve and restitution passes.
    @_transparent
    private static func applyNormalImpulse(
        _ impulse: Lanes, _ p: inout BatchPoint, _ n: (x: Lanes, y: Lanes), _ A: inout LaneBodies, _ B: inout LaneBodies,
        _ m: Masses, _ only: LaneMask, masked: Bool
    ) {
        let newImpulse = laneMax(p.normalImpulse + impulse, Lanes())
        let applied = newImpulse - p.normalImpulse
        p.normalImpulse = newImpulse
        p.maxNormalImpulse = laneMax(p.maxNormalImpulse, applied)
        apply(applied * n.x, applied * n.y, &p, &A, &B, m, only, masked: masked)
    }

    /// Applies the impulse P at the point to both bodies (-P to A, +P to B). Lanes outside `only`
    /// (a contact without this point) get exactly nothing: +0 subtracted and -0 added leave every
    /// value, signed zeros included, as it was, as if the point had been skipped.
    @_transparent
    private static func apply(
        _ Px: Lanes, _ Py: Lanes, _ p: inout BatchPoint, _ A: inout LaneBodies, _ B: inout LaneBodies, _ m: Masses,
        _ only: LaneMask, masked: Bool
    ) {
        var dvA = (m.mA * Px, m.mA * Py, m.iA * (p.anchorAX * Py - p.anchorAY * Px))
        var dvB = (m.mB * Px, m.mB * Py, m.iB * (p.anchorBX * Py - p.anchorBY * Px))
        if masked {
            let skip = .!only
            dvA.0.replace(with: 0, where: skip)
            dvA.1.replace(with: 0, where: skip)
            dvA.2.replace(with: 0, where: skip)
            dvB.0.replace(with: -0.0, where: skip)
            dvB.1.replace(with: -0.0, where: skip)
            dvB.2.replace(with: -0.0, where: skip)
        }
        A.vx -= dvA.0
        A.vy -= dvA.1
        A.w -= dvA.2
        B.vx += dvB.0
        B.vy += dvB.1
        B.w += dvB.2
    }

    /// Bounces: points that approached faster than the threshold and pushed during the step get
    /// the normal velocity -restitution x approach speed.
    mutating func restitution(_ states: UnsafeMutablePointer<BodyState>) {
        let threshold = Lanes(repeating: -PhysicsConstants.restitutionThreshold)
        batches.withUnsafeMutableBufferPointer { bp in
            for n in 0..<bp.count {
                let bouncy = bp[n].restitution .!= 0
                let bounce1 = bouncy .& .!(bp[n].p1.relativeVelocity .> threshold) .& (bp[n].p1.maxNormalImpulse .!= 0)
                let bounce2 = bouncy .& bp[n].hasP2 .& .!(bp[n].p2.relativeVelocity .> threshold)
                    .& (bp[n].p2.maxNormalImpulse .!= 0)
                if !any(bounce1 .| bounce2) { continue }
                let indexA = bp[n].indexA, indexB = bp[n].indexB
                var A = LaneBodies(states, indexA)
                var B = LaneBodies(states, indexB)
                let normal = (x: bp[n].normalX, y: bp[n].normalY)
                let m = Masses(mA: bp[n].invMassA, iA: bp[n].invInertiaA, mB: bp[n].invMassB, iB: bp[n].invInertiaB)
                let restitution = bp[n].restitution
                if any(bounce1) { ContactSolver.bouncePoint(&bp[n].p1, bounce1, &A, &B, normal, m, restitution) }
                if any(bounce2) { ContactSolver.bouncePoint(&bp[n].p2, bounce2, &A, &B, normal, m, restitution) }
                A.store(states, indexA, invMass: m.mA)
                B.store(states, indexB, invMass: m.mB)
            }
        }
    }

    @inline(__always)
    private static func bouncePoint(
        _ p: inout BatchPoint, _ bounce: LaneMask, _ A: inout LaneBodies, _ B: inout LaneBodies,
        _ n: (x: Lanes, y: Lanes), _ m: Masses, _ restitution: Lanes
    ) {
        let vn = ((B.vx + (-B.w) * p.anchorBY) - (A.vx + (-A.w) * p.anchorAY)) * n.x
            + ((B.vy + B.w * p.anchorBX) - (A.vy + A.w * p.anchorAX)) * n.y
        let impulse = -p.normalMass * (vn + restitution * p.relativeVelocity)
        // Points that do not bounce are skipped exactly (their impulse state is untouched).
        let before = p
        applyNormalImpulse(impulse, &p, n, &A, &B, m, bounce, masked: true)
        p.normalImpulse.replace(with: before.normalImpulse, where: .!bounce)
        p.maxNormalImpulse.replace(with: before.maxNormalImpulse, where: .!bounce)
    }
}
