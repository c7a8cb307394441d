/// Lanes of Doubles solved side by side: one contact per lane (IEEE per lane, so a lane gives
/// the same bits as the scalar operations it replaces; no horizontal reductions). Four lanes
/// measured faster than two on the pyramid even though baseline x86-64 has 2-wide SSE2; `Float`
/// lanes were faster still but lose momentum conservation (docs/determinism.md).
typealias Lanes = SIMD4<Double>

/// Lanes of the per-step constants a batch stores in 32-bit floats (lever arms, normals,
/// effective masses, friction, coupling, restitution, approach speeds), as Box2D v3 stores its
/// constraints: computed in `Double`, rounded once when the batch is filled, and widened exactly
/// to `Lanes` where the passes read them, so every kernel rounds alike and the arithmetic stays
/// `Double`. Inverse masses, impulses and separations stay `Double` (momentum is conserved to the
/// `Double` rounding: both sides of a contact get the same widened normal and impulse).
typealias NarrowLanes = SIMD4<Float>

/// The `Double` lanes of stored `Float` lanes (exact).
@inline(__always) func wide(_ x: NarrowLanes) -> Lanes {
    Lanes(Double(x[0]), Double(x[1]), Double(x[2]), Double(x[3]))
}

/// Body indices of the lanes of a batch.
typealias LaneIndices = SIMD4<Int32>

/// Lane-wise comparison results.
typealias LaneMask = SIMDMask<Lanes.MaskStorage>

/// One solver point in every lane of a batch, what the warm start reads too: lever arms fixed
/// for the step and accumulated impulses. A lane without this point has zero masses, so every
/// impulse it computes is zero.
struct BatchPoint {
    /// The anchors' (point minus centre of mass) cross products with the normal (rA × n, rB × n)
    /// and with the tangent (rA × t, rB × t; t = normal turned right, (ny, -nx)): all that the
    /// impulses and the separation need of the anchors.
    var normalArmA = NarrowLanes(), normalArmB = NarrowLanes()
    var tangentArmA = NarrowLanes(), tangentArmB = NarrowLanes()
    var normalImpulse = Lanes()
    var tangentImpulse = Lanes()
}

/// The rest of a solver point, which only the solve, relax and restitution passes read (kept
/// apart so that the warm start streams smaller records).
struct PointSolve {
    var baseSeparation = Lanes()
    var normalMass = NarrowLanes()
    var tangentMass = NarrowLanes()
    var maxNormalImpulse = Lanes()
}

/// The per-batch part the warm start does not read: friction, the rest of both points, and the
/// coupling of the two normal impulses that the block solve needs (`ContactSolver.blockIncrements`).
struct BatchSolve {
    var friction = NarrowLanes()
    var p1 = PointSolve()
    var p2 = PointSolve()
    /// k12 / k11 and k12 / k22 of the manifold's normal mass matrix K (k12: the velocity change
    /// along the normal at one point per unit impulse at the other); 0 where the contact is
    /// solved as one point.
    var coupling12 = NarrowLanes(), coupling21 = NarrowLanes()
    /// 1 / (1 - coupling12 x coupling21) (k11 k22 / det K); 1 where the contact is solved as one point.
    var blockScale = NarrowLanes(repeating: 1)
}

/// `Lanes.scalarCount` contact constraints side by side in SIMD lanes (like Box2D v3's
/// `b2ContactConstraintSIMD`): the lanes write disjoint movable bodies (`ContactSchedule`), so
/// one pass over the batch is the same as solving its contacts one after another. Unused lanes
/// point at the static ground (body 0), whose inverse masses are zero, and are never written
/// back. Neither the softness nor the inverse masses are stored: the passes read each body's
/// inverse mass and inertia from the solver's per-body array (`BodyMasses`), and a lane uses the
/// static coefficients when a side has zero inverse mass (the batches are 352 bytes).
struct ContactBatch {
    var indexA = LaneIndices()
    var indexB = LaneIndices()
    var normalX = NarrowLanes(), normalY = NarrowLanes()
    var p1 = BatchPoint()
    var p2 = BatchPoint()
    /// Lanes whose contact has a second point, and unused lanes (zero masses on the static body
    /// 0, all +0: the unmasked code stores nothing there, so a part-empty batch whose contacts
    /// all have two points takes the unmasked copy); the others must leave their bodies untouched.
    var hasP2 = LaneMask(repeating: false)
}

/// What only the restitution pass reads of a batch (kept apart so the other passes stream
/// smaller batches): restitution and each point's approach speed at the start of the step.
struct BatchBounce {
    var restitution = NarrowLanes()
    var relativeVelocity1 = NarrowLanes(), relativeVelocity2 = NarrowLanes()
}

/// Each body's inverse mass (x) and inverse inertia (y), by body index; body 0, the ground, has
/// zeros.
typealias BodyMasses = UnsafePointer<SIMD2<Double>>

/// The sub-step displacements of the bodies of one side of a batch, one body per lane.
struct LaneDisplacements {
    var dx: Lanes, dy: Lanes, c: Lanes, s: Lanes

    /// Reads the displacements (dp, dq) of the indexed bodies, transposed into lanes.
    @inline(__always)
    init(_ states: UnsafeMutablePointer<BodyState>, _ index: LaneIndices) {
        let s0 = states + Int(index[0]), s1 = states + Int(index[1])
        let s2 = states + Int(index[2]), s3 = states + Int(index[3])
        let p0 = s0.pointee.dp, p1 = s1.pointee.dp, p2 = s2.pointee.dp, p3 = s3.pointee.dp
        let q0 = s0.pointee.dq, q1 = s1.pointee.dq, q2 = s2.pointee.dq, q3 = s3.pointee.dq
        dx = Lanes(p0.x, p1.x, p2.x, p3.x)
        dy = Lanes(p0.y, p1.y, p2.y, p3.y)
        c = Lanes(q0.c, q1.c, q2.c, q3.c)
        s = Lanes(q0.s, q1.s, q2.s, q3.s)
    }
}

/// The velocities of the bodies of one side of a batch, one body per lane.
struct LaneBodies {
    var vx: Lanes, vy: Lanes, w: Lanes

    /// Reads the velocities of the indexed bodies, transposed into lanes (whole `Vector2`
    /// loads, so the transpose is a few shuffles rather than an insert per lane).
    @inline(__always)
    init(_ states: UnsafeMutablePointer<BodyState>, _ index: LaneIndices) {
        let s0 = states + Int(index[0]), s1 = states + Int(index[1])
        let s2 = states + Int(index[2]), s3 = states + Int(index[3])
        let v0 = s0.pointee.v, v1 = s1.pointee.v, v2 = s2.pointee.v, v3 = s3.pointee.v
        vx = Lanes(v0.x, v1.x, v2.x, v3.x)
        vy = Lanes(v0.y, v1.y, v2.y, v3.y)
        w = Lanes(s0.pointee.w, s1.pointee.w, s2.pointee.w, s3.pointee.w)
    }

    /// Writes the velocities back to the bodies that can move (inverse mass > 0); static bodies
    /// and unused lanes are shared between lanes and never written.
    @inline(__always)
    func store(_ states: UnsafeMutablePointer<BodyState>, _ index: LaneIndices, invMass: Lanes) {
        for l in 0..<Lanes.scalarCount where invMass[l] > 0 {
            let s = states + Int(index[l])
            s.pointee.v = Vector2(vx[l], vy[l])
            s.pointee.w = w[l]
        }
    }
}

/// `Swift.max(x, y)` lane by lane, written as the select `x > y ? x : y`: the same value as
/// `y >= x ? y : x` for every non-NaN pair, signed zeros included, and exactly the x86 `maxpd`
/// instruction (shorter than compare-and-blend on the solver's critical path). Debug and release
/// evaluate the same select, so they agree bit for bit.
@inline(__always) func laneMax(_ x: Lanes, _ y: Lanes) -> Lanes { y.replacing(with: x, where: x .> y) }

/// `Swift.min(x, y)` lane by lane (`y < x ? y : x`, exactly `minpd`).
@inline(__always) func laneMin(_ x: Lanes, _ y: Lanes) -> Lanes { x.replacing(with: y, where: y .< x) }

/// Stores `x` rounded to the nearest `Float` in one lane of narrow lanes (as `setLane`).
@inline(__always) func setLane(_ v: inout NarrowLanes, _ lane: Int, _ x: Double) {
    withUnsafeMutableBytes(of: &v) { $0.storeBytes(of: Float(x), toByteOffset: lane * MemoryLayout<Float>.stride, as: Float.self) }
}

/// `x` as it reads back from narrow lanes: rounded to the nearest `Float`, widened exactly.
@inline(__always) func narrowed(_ x: Double) -> Double { Double(Float(x)) }

/// Stores one lane of a vector in memory with a scalar store (`v[lane] = x` on a vector held in
/// memory would reload and re-store the whole vector, stalling on store forwarding).
@inline(__always) func setLane(_ v: inout Lanes, _ lane: Int, _ x: Double) {
    withUnsafeMutableBytes(of: &v) { $0.storeBytes(of: x, toByteOffset: lane * MemoryLayout<Double>.stride, as: Double.self) }
}
