import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import QixDynamics

@Suite struct DeterministicMathTests {
    /// Distance in units in the last place.
    private func ulps(_ a: Double, _ b: Double) -> Double {
        if a == b { return 0 }
        return abs(a - b) / max(abs(b).ulp, Double.leastNormalMagnitude)
    }

    @Test func sineAndCosineAgreeWithLibmWithinTwoUlp() {
        var x = -100.0
        while x < 100 {
            let sc = DeterministicMath.sinCos(x)
            // Near zeros of sin/cos, compare absolutely (1e-16) instead of in ulp.
            #expect(ulps(sc.sin, Glibc.sin(x)) <= 2 || abs(sc.sin - Glibc.sin(x)) < 1e-16)
            #expect(ulps(sc.cos, Glibc.cos(x)) <= 2 || abs(sc.cos - Glibc.cos(x)) < 1e-16)
            x += 0.0137
        }
    }

    @Test func expLogPowAgreeWithLibm() {
        for x in stride(from: -20.0, through: 20.0, by: 0.173) {
            #expect(ulps(DeterministicMath.exp(x), Glibc.exp(x)) <= 4)
        }
        for x in stride(from: 0.001, through: 1000.0, by: 0.917) {
            #expect(ulps(DeterministicMath.log(x), Glibc.log(x)) <= 4 || abs(DeterministicMath.log(x) - Glibc.log(x)) < 1e-15)
        }
        #expect(DeterministicMath.pow(3, 4) == 81)
        #expect(DeterministicMath.pow(2, -2) == 0.25)
        #expect(abs(DeterministicMath.pow(2, 0.5) - 2.0.squareRoot()) < 1e-15)
    }

    @Test func angleOfDirectionInvertsSinCos() {
        for k in -30...30 {
            let angle = Double(k) * 0.1
            let sc = DeterministicMath.sinCos(angle)
            #expect(abs(GravityBehavior.angleOf(Vector2(sc.cos, sc.sin)) - angle) < 1e-12)
        }
    }
}
