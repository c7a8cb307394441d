/// The lane kernels of the contact passes: one batch, four contacts side by side.
///
/// Consecutive batches mostly share bodies (the schedule packs every independent contact into
/// the lanes), so a pass is one long chain of dependent velocity updates. Everything that does
/// not depend on a velocity (lever arms, inverse mass times normal or arm, softness, the clamp
/// bounds) is computed off the chain, and a point's update on the chain is only: relative
/// velocity (subtract, multiply, two adds), impulse (add, multiply, subtract), clamp (one max,
/// or max and min, on the increment), apply (multiply, add). The lever arms (r × n, r × t) are
/// stored instead of the anchors: they are all the impulses and the separation need.
extension ContactSolver {
    /// A batch's contact normals.
    struct Normal {
        var x: Lanes, y: Lanes
    }

    /// Inverse masses and inertias of both sides of a batch, and the linear velocity change per
    /// unit normal impulse (inverse mass times normal).
    struct Masses {
        var mA: Lanes, iA: Lanes, mB: Lanes, iB: Lanes
        var mAnx: Lanes, mAny: Lanes, mBnx: Lanes, mBny: Lanes

        /// The masses of the bodies of batch `c`, from the per-body array.
        @inline(__always)
        init(_ c: ContactBatch, _ masses: BodyMasses) {
            let a0 = masses[Int(c.indexA[0])], a1 = masses[Int(c.indexA[1])]
            let a2 = masses[Int(c.indexA[2])], a3 = masses[Int(c.indexA[3])]
            let b0 = masses[Int(c.indexB[0])], b1 = masses[Int(c.indexB[1])]
            let b2 = masses[Int(c.indexB[2])], b3 = masses[Int(c.indexB[3])]
            mA = Lanes(a0.x, a1.x, a2.x, a3.x)
            iA = Lanes(a0.y, a1.y, a2.y, a3.y)
            mB = Lanes(b0.x, b1.x, b2.x, b3.x)
            iB = Lanes(b0.y, b1.y, b2.y, b3.y)
            let nx = wide(c.normalX), ny = wide(c.normalY)
            mAnx = mA * nx
            mAny = mA * ny
            mBnx = mB * nx
            mBny = mB * ny
        }
    }

    /// One point's lever arms about both centres of mass across the normal and the tangent
    /// (tangent = normal turned right, (ny, -nx)), and the angular velocity change per unit
    /// impulse (inverse inertia times arm).
    struct PointArms {
        var nA: Lanes, nB: Lanes, tA: Lanes, tB: Lanes
        var wnA: Lanes, wnB: Lanes, wtA: Lanes, wtB: Lanes

        @inline(__always)
        init(_ p: BatchPoint, _ m: Masses) {
            nA = wide(p.normalArmA)
            nB = wide(p.normalArmB)
            tA = wide(p.tangentArmA)
            tB = wide(p.tangentArmB)
            wnA = m.iA * nA
            wnB = m.iB * nB
            wtA = m.iA * tA
            wtB = m.iB * tB
        }
    }

    /// The soft-contact coefficients of one pass: contacts between moving bodies, and contacts
    /// with a static side (stiffer); the relax pass's over-relaxation; and the bodies' inverse
    /// masses.
    struct SoftLanes {
        var contact: Softness, `static`: Softness
        var invH: Double
        var maxPush: Lanes
        var overRelaxation: Lanes
        var useBias: Bool
        var masses: BodyMasses
    }

    /// Solves one batch: both points' normal impulses together (`blockIncrements`), then both
    /// friction impulses in Box2D's order; `masked` when some lane has no second point.
    @inline(__always)
    static func solveBatch(_ c: inout ContactBatch, _ d: inout BatchSolve, _ states: UnsafeMutablePointer<BodyState>,
                           soft: SoftLanes, masked: Bool) {
        let indexA = c.indexA, indexB = c.indexB
        let normal = Normal(x: wide(c.normalX), y: wide(c.normalY))
        // Current separations from the sub-step displacements (arms are fixed for the step).
        let dA = LaneDisplacements(states, indexA), dB = LaneDisplacements(states, indexB)
        let s1 = separation(c.p1, d.p1, dA, dB, normal)
        let s2 = separation(c.p2, d.p2, dA, dB, normal)
        let m = Masses(c, soft.masses)
        let arms1 = PointArms(c.p1, m), arms2 = PointArms(c.p2, m)
        var A = LaneBodies(states, indexA)
        var B = LaneBodies(states, indexB)
        let only = c.hasP2
        // Both targets from the same velocities: a missing second point has zero normal mass and
        // impulse, so its target and increment are zero.
        let linear = linearNormalVelocity(A, B, normal)
        let u1 = normalTarget(c.p1, d.p1, s1, linear + angularNormalVelocity(A, B, arms1), m, soft)
        let u2 = normalTarget(c.p2, d.p2, s2, linear + angularNormalVelocity(A, B, arms2), m, soft)
        let coupling = Coupling(c12: wide(d.coupling12), c21: wide(d.coupling21), scale: wide(d.blockScale))
        let (j1, j2) = blockIncrements(u1, u2, c.p1.normalImpulse, c.p2.normalImpulse, coupling)
        applyNormalPair(j1, j2, &c, &d, arms1, arms2, &A, &B, m, only, masked: false)
        let friction = wide(d.friction)
        frictionPoint(&c.p1, wide(d.p1.tangentMass), arms1, &A, &B, normal, m, friction, only, masked: false)
        frictionPoint(&c.p2, wide(d.p2.tangentMass), arms2, &A, &B, normal, m, friction, only, masked: masked)
        A.store(states, indexA, invMass: m.mA)
        B.store(states, indexB, invMass: m.mB)
    }

    /// The separation of a point after the bodies moved by their sub-step displacements.
    @inline(__always)
    static func separation(_ p: BatchPoint, _ q: PointSolve, _ dA: LaneDisplacements, _ dB: LaneDisplacements,
                           _ n: Normal) -> Lanes {
        // (dq r) · n = c (r · n) + s (r × n) = s (r × n) - c (r × t).
        let linear = (dB.dx - dA.dx) * n.x + (dB.dy - dA.dy) * n.y
        let angular = (dB.s * wide(p.normalArmB) - dB.c * wide(p.tangentArmB))
            - (dA.s * wide(p.normalArmA) - dA.c * wide(p.tangentArmA))
        return (linear + angular) + q.baseSeparation
    }

    /// The relative velocity of the bodies' centres along the normal (the part every point shares).
    @_transparent
    static func linearNormalVelocity(_ A: LaneBodies, _ B: LaneBodies, _ n: Normal) -> Lanes {
        (B.vx - A.vx) * n.x + (B.vy - A.vy) * n.y
    }

    /// What the bodies' turning adds to the relative normal velocity at a point.
    @_transparent
    static func angularNormalVelocity(_ A: LaneBodies, _ B: LaneBodies, _ arms: PointArms) -> Lanes {
        B.w * arms.nB - A.w * arms.nA
    }

    /// The soft normal impulse that one point alone would take (Box2D v3's): pushes overlap out
    /// with the bias in the solve pass, lets a separated (speculative) point close at most its
    /// gap in a sub-step; in the relax pass a touching point's target is over-relaxed. `vn` is
    /// the relative normal velocity at the point.
    @_transparent
    static func normalTarget(_ p: BatchPoint, _ q: PointSolve, _ s: Lanes, _ vn: Lanes, _ m: Masses,
                             _ soft: SoftLanes) -> Lanes {
        let separated = s .> 0
        var bias = Lanes(), massScale = Lanes(repeating: 1), impulseScale = Lanes()
        if soft.useBias {
            // The static coefficients where a side does not move (as the fill chose them).
            let isStatic = (m.mA .== 0) .| (m.mB .== 0)
            let biasRate = Lanes(repeating: soft.contact.biasRate).replacing(with: soft.static.biasRate, where: isStatic)
            bias = laneMax(biasRate * s, soft.maxPush)
            massScale = Lanes(repeating: soft.contact.massScale).replacing(with: soft.static.massScale, where: isStatic)
            impulseScale = Lanes(repeating: soft.contact.impulseScale)
                .replacing(with: soft.static.impulseScale, where: isStatic)
        }
        bias.replace(with: s * soft.invH, where: separated)
        massScale.replace(with: 1, where: separated)
        impulseScale.replace(with: 0, where: separated)
        let scale = -wide(q.normalMass) * massScale
        let relax = impulseScale * p.normalImpulse
        let target = scale * (vn + bias) - relax
        if soft.useBias { return target }
        // The relax pass over-relaxes touching points (`PhysicsConstants.relaxOverRelaxation`);
        // a speculative point keeps its exact target, so nothing lands harder than it approached.
        return target.replacing(with: target * soft.overRelaxation, where: .!separated)
    }

    /// The friction impulse at one point, its total kept within ±friction × its normal impulse.
    @_transparent
    static func frictionPoint(
        _ p: inout BatchPoint, _ tangentMass: Lanes, _ arms: PointArms, _ A: inout LaneBodies, _ B: inout LaneBodies,
        _ n: Normal,
        _ m: Masses, _ friction: Lanes, _ only: LaneMask, masked: Bool
    ) {
        let vt = ((B.vx - A.vx) * n.y - (B.vy - A.vy) * n.x) + (B.w * arms.tB - A.w * arms.tA)
        // The increment is clamped so that the total stays within ±friction x normal impulse
        // (bounds computed off the velocity chain).
        let maxFriction = friction * p.normalImpulse
        let lower = -maxFriction - p.tangentImpulse, upper = maxFriction - p.tangentImpulse
        let impulse = laneMin(laneMax(-tangentMass * vt, lower), upper)
        p.tangentImpulse = p.tangentImpulse + impulse
        // Impulse along the tangent (ny, -nx).
        apply(impulse, (m.mAny, -m.mAnx, arms.wtA), (m.mBny, -m.mBnx, arms.wtB), &A, &B, only, masked: masked)
    }

    /// Accumulates both points' normal increments (each total stays >= 0: `blockIncrements`
    /// never takes more than a total) and applies them to both bodies at once. Shared by the
    /// solve and restitution passes.
    @_transparent
    static func applyNormalPair(
        _ j1: Lanes, _ j2: Lanes, _ c: inout ContactBatch, _ d: inout BatchSolve, _ arms1: PointArms,
        _ arms2: PointArms, _ A: inout LaneBodies, _ B: inout LaneBodies, _ m: Masses, _ only: LaneMask, masked: Bool
    ) {
        c.p1.normalImpulse = c.p1.normalImpulse + j1
        c.p2.normalImpulse = c.p2.normalImpulse + j2
        d.p1.maxNormalImpulse = laneMax(d.p1.maxNormalImpulse, j1)
        d.p2.maxNormalImpulse = laneMax(d.p2.maxNormalImpulse, j2)
        let j = j1 + j2
        let dvA = (j * m.mAnx, j * m.mAny, j1 * arms1.wnA + j2 * arms2.wnA)
        let dvB = (j * m.mBnx, j * m.mBny, j1 * arms1.wnB + j2 * arms2.wnB)
        applyChanges(dvA, dvB, &A, &B, only, masked: masked)
    }

    /// Applies the impulse `j` to both bodies: minus `j` times A's velocity change per unit
    /// impulse to A, plus `j` times B's to B.
    @_transparent
    static func apply(
        _ j: Lanes, _ perA: (Lanes, Lanes, Lanes), _ perB: (Lanes, Lanes, Lanes), _ A: inout LaneBodies,
        _ B: inout LaneBodies, _ only: LaneMask, masked: Bool
    ) {
        applyChanges((j * perA.0, j * perA.1, j * perA.2), (j * perB.0, j * perB.1, j * perB.2), &A, &B, only,
                     masked: masked)
    }

    /// Subtracts the velocity changes `dvA` from A and adds `dvB` to B. Lanes outside `only`
    /// (a contact without this point, a point that does not bounce) get exactly nothing: +0
    /// subtracted and -0 added leave every value, signed zeros included, as it was.
    @_transparent
    static func applyChanges(
        _ dvA: (Lanes, Lanes, Lanes), _ dvB: (Lanes, Lanes, Lanes), _ A: inout LaneBodies, _ B: inout LaneBodies,
        _ only: LaneMask, masked: Bool
    ) {
        var dvA = dvA, dvB = dvB
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
}
