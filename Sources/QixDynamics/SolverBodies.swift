/// The contact solver's copy of the bodies it reads: one 16-byte row per body for the
/// velocity (vx, vy, w, 0) and one for the sub-step displacement (dp.x, dp.y, dq.c, dq.s), so a
/// batch gathers a side's four bodies with four loads and a transpose (Box2D v3's
/// `b2BodyState`). Rows are loaded from the `Double` body states before a pass and the
/// velocities of the bodies that move are written back after it; static bodies' rows may pick
/// up ±0 from the lanes that share them but are never written back.
struct SolverBodies {
    private(set) var velocities: [SIMD4<Double>] = []
    private(set) var displacements: [SIMD4<Double>] = []
    /// Bodies whose velocities the solver changes (inverse mass > 0), ascending.
    private(set) var movable: [Int32] = []

    /// Sizes the rows for `count` bodies and records which move (`masses[i].x`: inverse mass).
    mutating func reset(masses: UnsafeBufferPointer<SIMD2<Double>>) {
        velocities.setCount(masses.count, filler: .zero)
        displacements.setCount(masses.count, filler: .zero)
        movable.removeAll(keepingCapacity: true)
        for i in 0..<masses.count where masses[i].x > 0 { movable.append(Int32(i)) }
    }

    /// Runs `body` with the velocity rows (and, with `displacements`, the displacement rows)
    /// loaded from `states`, then writes the velocities of the moving bodies back.
    mutating func withRows(
        _ states: UnsafeMutablePointer<BodyState>, displacements loadDisplacements: Bool,
        _ body: (UnsafeMutablePointer<SIMD4<Double>>, UnsafeMutablePointer<SIMD4<Double>>) -> Void
    ) {
        velocities.withUnsafeMutableBufferPointer { vp in
            displacements.withUnsafeMutableBufferPointer { dp in
                movable.withUnsafeBufferPointer { mp in
                    guard let V = vp.baseAddress, let D = dp.baseAddress else { return }
                    for i in 0..<vp.count {
                        let s = states + i
                        V[i] = SIMD4(s.pointee.v.x, s.pointee.v.y, s.pointee.w, 0)
                    }
                    if loadDisplacements {
                        for i in 0..<dp.count {
                            let s = states + i
                            D[i] = SIMD4(s.pointee.dp.x, s.pointee.dp.y, s.pointee.dq.c, s.pointee.dq.s)
                        }
                    }
                    body(V, D)
                    for i32 in mp {
                        let i = Int(i32), v = V[i]
                        states[i].v = Vector2(Double(v.x), Double(v.y))
                        states[i].w = Double(v.z)
                    }
                }
            }
        }
    }
}
