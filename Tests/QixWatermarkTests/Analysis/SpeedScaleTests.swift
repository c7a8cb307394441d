import Testing
@testable import QixWatermark

/// The band statistics' detrend: the two-bands-per-lane path gives the scalar path's bits.
struct SpeedScaleTests {
    @Test func detrendInLanesMatchesTheScalarLoopBitForBit() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state) >> 40) / Float(1 << 23)
        }
        for (bands, hops) in [(22, 500), (22, 7), (4, 60), (2, 1)] {
            let values = (0..<(bands * hops)).map { _ in next() }
            let weights = (0..<(bands * hops)).map { _ in abs(next()) }
            var lanes = [Float](repeating: .nan, count: values.count)
            var scalar = [Float](repeating: .nan, count: values.count)
            values.withUnsafeBufferPointer { v in
                weights.withUnsafeBufferPointer { w in
                    lanes.withUnsafeMutableBufferPointer { SpeedScale.detrend(v, weights: w, into: $0, bands: bands, radius: 24) }
                    scalar.withUnsafeMutableBufferPointer { SpeedScale.detrendScalar(v, weights: w, into: $0, bands: bands, radius: 24) }
                }
            }
            #expect(lanes.map(\.bitPattern) == scalar.map(\.bitPattern), "\(bands) bands, \(hops) hops")
        }
    }
}
