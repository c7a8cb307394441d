/// Smooth deterministic gradient-free value noise in 3D (x, y, time) for noise and turbulence
/// fields: integer hashing and smoothstep interpolation, no libm.
enum ValueNoise {
    static func hash(_ x: Int64, _ y: Int64, _ z: Int64, _ salt: UInt64) -> Double {
        var h = UInt64(bitPattern: x) &* 0x9E37_79B9_7F4A_7C15
        h ^= UInt64(bitPattern: y) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= UInt64(bitPattern: z) &* 0x1656_67B1_9E37_79F9
        h ^= salt
        h ^= h >> 31
        h = h &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 27
        return Double(h >> 11) * (2.0 / 9_007_199_254_740_992.0) - 1
    }

    /// A lattice coordinate clamped to ±1e15; NaN gives 0 (a conversion of NaN traps).
    static func lattice(_ f: Double) -> Int64 {
        f >= -1e15 ? (f <= 1e15 ? Int64(f) : Int64(1e15)) : (f.isNaN ? 0 : Int64(-1e15))
    }

    static func sample(_ p: Vector2, _ t: Double, _ salt: UInt64) -> Double {
        let fx = p.x.rounded(.down), fy = p.y.rounded(.down), ft = t.rounded(.down)
        let ix = lattice(fx), iy = lattice(fy), it = lattice(ft)
        let ux = smooth(p.x - fx), uy = smooth(p.y - fy), ut = smooth(t - ft)
        func lerp(_ a: Double, _ b: Double, _ u: Double) -> Double { a + u * (b - a) }
        var corners = 0.0
        var layers = [0.0, 0.0]
        for dz in 0..<2 {
            let c00 = hash(ix, iy, it + Int64(dz), salt)
            let c10 = hash(ix + 1, iy, it + Int64(dz), salt)
            let c01 = hash(ix, iy + 1, it + Int64(dz), salt)
            let c11 = hash(ix + 1, iy + 1, it + Int64(dz), salt)
            layers[dz] = lerp(lerp(c00, c10, ux), lerp(c01, c11, ux), uy)
        }
        corners = lerp(layers[0], layers[1], ut)
        return corners
    }

    static func smooth(_ u: Double) -> Double { u * u * (3 - 2 * u) }

    /// A noise vector with components in [-1, 1].
    static func vector(at p: Vector2, time: Double) -> Vector2 {
        Vector2(sample(p, time, 0x51ED_270B), sample(p, time, 0x2545_F491))
    }
}
