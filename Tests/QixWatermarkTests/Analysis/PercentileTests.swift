import Testing
@testable import QixWatermark

/// The noise-floor percentile equals the sorted array's element, ties and all.
@Suite("Percentile")
struct PercentileTests {
    @Test("quickselect returns the element a full sort puts at the rank")
    func matchesSort() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
        for count in [1, 2, 3, 7, 100, 4001] {
            // Half random values, half from a few repeated levels (many ties).
            let values = (0..<count).map { $0 % 2 == 0 ? next() : Float(Int(next() * 4)) }
            for fraction in [0.0, 0.05, 0.3, 0.5, 0.99, 1.0] {
                var scratch = values
                let sorted = values.sorted()
                let expected = sorted[min(count - 1, Int(Double(count) * fraction))]
                #expect(Percentile.value(&scratch, at: fraction) == expected, "count \(count), fraction \(fraction)")
            }
        }
        var empty: [Float] = []
        #expect(Percentile.value(&empty, at: 0.5) == 0)
    }
}
