/// Lanes of Doubles solved side by side: one contact per lane (IEEE per lane, so a lane gives
/// the same bits as the scalar operations it replaces; no horizontal reductions). Four lanes
/// measured faster than two on the pyramid even though baseline x86-64 has 2-wide SSE2; `Float`
/// lanes were faster still but lose momentum conservation (docs/determinism.md).
typealias Lanes = SIMD4<Double>

/// Body indices of the lanes of a batch.
typealias LaneIndices = SIMD4<Int32>

/// Lane-wise comparison results.
typealias LaneMask = SIMDMask<Lanes.MaskStorage>

/// One solver point in every lane of a batch: lever arms fixed for the step and accumulated
/// impulses. A lane without this point has zero masses, so every impulse it computes is zero.
struct BatchPoint {
    /// The anchors' (point minus centre of mass) cross products with the normal (rA × n, rB × n)
    /// and with the tangent (rA × t, rB × t; t = normal turned right, (ny, -nx)): all that the
    /// impulses and the separation need of the anchors.
    var normalArmA = Lanes(), normalArmB = Lanes()
    var tangentArmA = Lanes(), tangentArmB = Lanes()
    var baseSeparation = Lanes()
    var normalMass = Lanes()
    var tangentMass = Lanes()
    var normalImpulse = Lanes()
    var tangentImpulse = Lanes()
    var maxNormalImpulse = Lanes()
    var relativeVelocity = Lanes()
}

/// `Lanes.scalarCount` contact constraints side by side in SIMD lanes (like Box2D v3's
/// `b2ContactConstraintSIMD`): the lanes write disjoint movable bodies (`ContactSchedule`), so
/// one pass over the batch is the same as solving its contacts one after another. Unused lanes
/// point at the static ground (body 0) with zero masses and are never written back.
struct ContactBatch {
    var indexA = LaneIndices()
    var indexB = LaneIndices()
    var invMassA = Lanes(), invInertiaA = Lanes()
    var invMassB = Lanes(), invInertiaB = Lanes()
    var normalX = Lanes(), normalY = Lanes()
    var friction = Lanes()
    var restitution = Lanes()
    var biasRate = Lanes(), massScale = Lanes(), impulseScale = Lanes()
    var p1 = BatchPoint()
    var p2 = BatchPoint()
    /// Lanes whose contact has a second point; the others must leave their bodies untouched.
    var hasP2 = LaneMask(repeating: false)
}

/// Four rows of `SolverBodies` (one per lane) transposed into lanes: x, y, z, w of every row.
struct LaneRows {
    var x: Lanes, y: Lanes, z: Lanes, w: Lanes

    /// Gathers the indexed rows.
    @inline(__always)
    init(_ rows: UnsafeMutablePointer<SIMD4<Double>>, _ index: LaneIndices) {
        let r0 = rows[Int(index[0])], r1 = rows[Int(index[1])]
        let r2 = rows[Int(index[2])], r3 = rows[Int(index[3])]
        x = Lanes(r0.x, r1.x, r2.x, r3.x)
        y = Lanes(r0.y, r1.y, r2.y, r3.y)
        z = Lanes(r0.z, r1.z, r2.z, r3.z)
        w = Lanes(r0.w, r1.w, r2.w, r3.w)
    }
}

/// The velocities of the bodies of one side of a batch, one body per lane.
struct LaneBodies {
    var vx: Lanes, vy: Lanes, w: Lanes

    /// Reads the velocities of the indexed bodies.
    @inline(__always)
    init(_ rows: UnsafeMutablePointer<SIMD4<Double>>, _ index: LaneIndices) {
        let r = LaneRows(rows, index)
        vx = r.x
        vy = r.y
        w = r.z
    }

    /// Writes the velocities back to the bodies that can move (inverse mass > 0); static bodies
    /// and unused lanes are shared between lanes and never written.
    @inline(__always)
    func store(_ rows: UnsafeMutablePointer<SIMD4<Double>>, _ index: LaneIndices, invMass: Lanes) {
        for l in 0..<Lanes.scalarCount where invMass[l] > 0 {
            rows[Int(index[l])] = SIMD4(vx[l], vy[l], w[l], 0)
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

/// Stores one lane of a vector in memory with a scalar store (`v[lane] = x` on a vector held in
/// memory would reload and re-store the whole vector, stalling on store forwarding).
@inline(__always) func setLane(_ v: inout Lanes, _ lane: Int, _ x: Double) {
    withUnsafeMutableBytes(of: &v) { $0.storeBytes(of: x, toByteOffset: lane * MemoryLayout<Double>.stride, as: Double.self) }
}
