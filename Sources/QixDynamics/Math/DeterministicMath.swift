/// Sine, cosine, exponential, logarithm and power computed with plain IEEE arithmetic only,
/// so every platform and build gets the same bits (libm implementations differ in the last bit).
public enum DeterministicMath {
    // Cody-Waite split of pi/2 (fdlibm): hi parts have trailing zero bits so k * hi is exact.
    @usableFromInline static let pio2_1 = 1.57079632673412561417e+00
    @usableFromInline static let pio2_2 = 6.07710050630396597660e-11
    @usableFromInline static let pio2_3 = 2.02226624871116645580e-21
    @usableFromInline static let twoOverPi = 6.36619772367581382433e-01

    /// Sine and cosine of `x` radians (accurate to about 1 ulp for |x| < 1e6); NaN from 1e15 on
    /// (where the reduction by π/2 means nothing), for infinities and for NaN. Never traps.
    @inlinable public static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        if !(abs(x) < 1e15) { return (.nan, .nan) }
        let k = (x * twoOverPi).rounded(.toNearestOrEven)
        let r = ((x - k * pio2_1) - k * pio2_2) - k * pio2_3
        let s = kernelSin(r)
        let c = kernelCos(r)
        // |x| < 1e15 (above), so |k| < 6.4e14: an exact integer that `Int` holds, and `& 3` is
        // k mod 4 (the exact remainder `truncatingRemainder` gave, without its libm `fmod` call,
        // 50 of the 120 instructions of a call).
        let quadrant = Int(k) & 3
        switch quadrant {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    /// Sine of `x` radians.
    @inlinable public static func sin(_ x: Double) -> Double { sinCos(x).sin }
    /// Cosine of `x` radians.
    @inlinable public static func cos(_ x: Double) -> Double { sinCos(x).cos }

    @usableFromInline static func kernelSin(_ x: Double) -> Double {
        let z = x * x
        let p = -1.66666666666666324348e-01 + z * (8.33333333332248946124e-03 + z * (-1.98412698298579493134e-04
            + z * (2.75573137070700676789e-06 + z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10))))
        return x + x * z * p
    }

    @usableFromInline static func kernelCos(_ x: Double) -> Double {
        let z = x * x
        let p = 4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03 + z * (2.48015872894767294178e-05
            + z * (-2.75573143513906633035e-07 + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11))))
        let hz = 0.5 * z
        let w = 1.0 - hz
        return w + (((1.0 - w) - hz) + z * z * p)
    }

    static let ln2 = 0.693147180559945309417232121458

    /// e raised to `x`.
    public static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.7 { return .infinity }
        if x < -745 { return 0 }
        let k = (x / ln2).rounded(.toNearestOrEven)
        // ln2 split so that k * hi is exact.
        let r = (x - k * 6.93147180369123816490e-01) - k * 1.90821492927058770002e-10
        var term = 1.0
        var sum = 1.0
        for n in 1...17 {
            term = term * r / Double(n)
            sum += term
        }
        return scaleByPowerOfTwo(sum, Int(k))
    }

    /// Natural logarithm of `x` (NaN for negative, -inf for 0).
    public static func log(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x.isInfinite { return x }
        var m = x.significand  // in [1, 2)
        var e = Double(x.exponent)
        if m > 1.4142135623730951 {
            m *= 0.5
            e += 1
        }
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        var term = s
        var sum = 0.0
        var n = 1.0
        while n < 40 {
            sum += term / n
            term *= s2
            n += 2
        }
        return 2 * sum + e * ln2
    }

    /// `base` raised to `exponent`; integral exponents are exact repeated products.
    public static func pow(_ base: Double, _ exponent: Double) -> Double {
        if exponent == 0 { return 1 }
        if exponent == exponent.rounded(), abs(exponent) <= 64 {
            var result = 1.0
            var b = base
            var n = Int(abs(exponent))
            while n > 0 {
                if n & 1 == 1 { result *= b }
                b *= b
                n >>= 1
            }
            return exponent < 0 ? 1 / result : result
        }
        if base <= 0 { return base == 0 ? (exponent > 0 ? 0 : .infinity) : .nan }
        return exp(exponent * log(base))
    }

    static func scaleByPowerOfTwo(_ x: Double, _ k: Int) -> Double {
        var result = x
        var n = k
        while n > 1000 { result *= Double(sign: .plus, exponent: 1000, significand: 1); n -= 1000 }
        while n < -1000 { result *= Double(sign: .plus, exponent: -1000, significand: 1); n += 1000 }
        return result * Double(sign: .plus, exponent: n, significand: 1)
    }
}
