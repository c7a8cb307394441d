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

        @inline(__always)
        init(_ c: ContactBatch) {
            mA = c.invMassA
            iA = c.invInertiaA
            mB = c.invMassB
            iB = c.invInertiaB
            mAnx = mA * c.normalX
            mAny = mA * c.normalY
            mBnx = mB * c.normalX
            mBny = mB * c.normalY
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
            nA = p.normalArmA
            nB = p.normalArmB
            tA = p.tangentArmA
            tB = p.tangentArmB
            wnA = m.iA * nA
            wnB = m.iB * nB
            wtA = m.iA * tA
            wtB = m.iB * tB
        }
    }

    /// The soft-contact coefficients of one pass: contacts between moving bodies, and contacts
    /// with a static side (stiffer).
    struct SoftLanes {
        var contact: Softness, `static`: Softness
        var invH: Double
        var maxPush: Lanes
        var useBias: Bool
    }

    /// Solves one batch in Box2D's order: both points' normal impulses, then both friction
    /// impulses; `masked` when some lane has no second point.
    @inline(__always)
    static func solveBatch(_ c: inout ContactBatch, _ d: inout BatchSolve, _ states: UnsafeMutablePointer<BodyState>,
                           soft: SoftLanes, masked: Bool) {
        let indexA = c.indexA, indexB = c.indexB
        let normal = Normal(x: c.normalX, y: c.normalY)
        // Current separations from the sub-step displacements (arms are fixed for the step).
        let dA = LaneDisplacements(states, indexA), dB = LaneDisplacements(states, indexB)
        let s1 = separation(c.p1, d.p1, dA, dB, normal)
        let s2 = separation(c.p2, d.p2, dA, dB, normal)
        let m = Masses(c)
        let arms1 = PointArms(c.p1, m), arms2 = PointArms(c.p2, m)
        var A = LaneBodies(states, indexA)
        var B = LaneBodies(states, indexB)
        let only = c.hasP2
        normalPoint(&c.p1, &d.p1, arms1, s1, &A, &B, normal, m, soft, only, masked: false)
        normalPoint(&c.p2, &d.p2, arms2, s2, &A, &B, normal, m, soft, only, masked: masked)
        let friction = d.friction
        frictionPoint(&c.p1, d.p1.tangentMass, arms1, &A, &B, normal, m, friction, only, masked: false)
        frictionPoint(&c.p2, d.p2.tangentMass, arms2, &A, &B, normal, m, friction, only, masked: masked)
        A.store(states, indexA, invMass: m.mA)
        B.store(states, indexB, invMass: m.mB)
    }

    /// The separation of a point after the bodies moved by their sub-step displacements.
    @inline(__always)
    static func separation(_ p: BatchPoint, _ q: PointSolve, _ dA: LaneDisplacements, _ dB: LaneDisplacements,
                           _ n: Normal) -> Lanes {
        // (dq r) · n = c (r · n) + s (r × n) = s (r × n) - c (r × t).
        let linear = (dB.dx - dA.dx) * n.x + (dB.dy - dA.dy) * n.y
        let angular = (dB.s * p.normalArmB - dB.c * p.tangentArmB) - (dA.s * p.normalArmA - dA.c * p.tangentArmA)
        return (linear + angular) + q.baseSeparation
    }

    /// The relative velocity of the bodies at a point along the normal.
    @_transparent
    static func normalVelocity(_ A: LaneBodies, _ B: LaneBodies, _ n: Normal, _ arms: PointArms) -> Lanes {
        ((B.vx - A.vx) * n.x + (B.vy - A.vy) * n.y) + (B.w * arms.nB - A.w * arms.nA)
    }

    /// The soft normal impulse at one point: pushes overlap out with the bias in the solve pass,
    /// lets a separated (speculative) point close at most its gap in a sub-step.
    @_transparent
    static func normalPoint(
        _ p: inout BatchPoint, _ q: inout PointSolve, _ arms: PointArms, _ s: Lanes, _ A: inout LaneBodies,
        _ B: inout LaneBodies,
        _ n: Normal, _ m: Masses, _ soft: SoftLanes, _ only: LaneMask, masked: Bool
    ) {
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
        let scale = -q.normalMass * massScale
        let relax = impulseScale * p.normalImpulse
        let impulse = scale * (normalVelocity(A, B, n, arms) + bias) - relax
        applyNormalImpulse(impulse, &p, &q, arms, &A, &B, m, only, masked: masked)
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

    /// Accumulates a normal impulse, clamped so that the total never pulls (contacts only push:
    /// the increment is at least minus the total, so the new total is >= 0 exactly), and
    /// applies the increment to both bodies. Shared by the solve and restitution passes.
    @_transparent
    static func applyNormalImpulse(
        _ impulse: Lanes, _ p: inout BatchPoint, _ q: inout PointSolve, _ arms: PointArms, _ A: inout LaneBodies,
        _ B: inout LaneBodies,
        _ m: Masses, _ only: LaneMask, masked: Bool
    ) {
        let applied = laneMax(impulse, -p.normalImpulse)
        p.normalImpulse = p.normalImpulse + applied
        q.maxNormalImpulse = laneMax(q.maxNormalImpulse, applied)
        apply(applied, (m.mAnx, m.mAny, arms.wnA), (m.mBnx, m.mBny, arms.wnB), &A, &B, only, masked: masked)
    }

    /// Applies the impulse `j` to both bodies: minus `j` times A's velocity change per unit
    /// impulse to A, plus `j` times B's to B. Lanes outside `only` (a contact without this
    /// point) get exactly nothing: +0 subtracted and -0 added leave every value, signed zeros
    /// included, as it was, as if the point had been skipped.
    @_transparent
    static func apply(
        _ j: Lanes, _ perA: (Lanes, Lanes, Lanes), _ perB: (Lanes, Lanes, Lanes), _ A: inout LaneBodies,
        _ B: inout LaneBodies, _ only: LaneMask, masked: Bool
    ) {
        var dvA = (j * perA.0, j * perA.1, j * perA.2)
        var dvB = (j * perB.0, j * perB.1, j * perB.2)
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

    /// A bounce at one point, in the lanes of `bounce` only (the others are left exactly as
    /// they were, impulses included).
    @inline(__always)
    static func bouncePoint(
        _ p: inout BatchPoint, _ q: inout PointSolve, _ relativeVelocity: Lanes, _ bounce: LaneMask,
        _ A: inout LaneBodies, _ B: inout LaneBodies,
        _ n: Normal, _ m: Masses, _ restitution: Lanes
    ) {
        let arms = PointArms(p, m)
        let impulse = -q.normalMass * (normalVelocity(A, B, n, arms) + restitution * relativeVelocity)
        let before = (p.normalImpulse, q.maxNormalImpulse)
        applyNormalImpulse(impulse, &p, &q, arms, &A, &B, m, bounce, masked: true)
        p.normalImpulse.replace(with: before.0, where: .!bounce)
        q.maxNormalImpulse.replace(with: before.1, where: .!bounce)
    }
}
