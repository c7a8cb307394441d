import Foundation
import Testing
@testable import QixWatermark

/// The masked threshold: tones mask far less than noise of the same energy, loud bands
/// mask their quieter neighbours, and the margin moves the depth by its dB.
struct MaskedThresholdTests {
    typealias P = WatermarkParameters

    /// One slot's bin powers: every band filled by `band(b)`'s 8 bin powers.
    func slot(_ band: (Int) -> [Float]) -> [Float] {
        var power = [Float](repeating: 0, count: HopSpectra.width)
        for b in 0..<P.bandCount {
            let first = TileMasking.bandStart(b)
            for (i, value) in band(b).enumerated() { power[first + i] = value }
        }
        return power
    }

    func depths(_ power: [Float], margin: Float = 0) -> [Float] {
        var scratch = [Float](repeating: 0, count: 2 * P.bandCount), out = [Float](repeating: 0, count: P.bandCount)
        power.withUnsafeBufferPointer { MaskedThreshold.depths($0, margin: margin, scratch: &scratch, into: &out) }
        return out
    }

    /// Flat (noise-like) power in every band, or one bin holding it all (a partial).
    let noise: (Int) -> [Float] = { _ in [Float](repeating: 1, count: 8) }
    let tone: (Int) -> [Float] = { _ in [0, 0, 0.05, 7.9, 0.05, 0, 0, 0] }

    @Test("a band of noise masks about 5.5 dB under itself, a partial 14.5 + z dB")
    func tonesMaskLessThanNoise() {
        let noisy = depths(slot(noise)), tonal = depths(slot(tone))
        for b in 0..<P.bandCount {
            // Alone, the offset gives sqrt(10^-0.55) = 0.53; the neighbours' spread adds to it.
            #expect(noisy[b] > 0.53 && noisy[b] < 1.3, "band \(b): \(noisy[b])")
            let z = Float(MaskedThreshold.bandBark[b])
            let alone = pow(10, -(14.5 + z) / 20)
            #expect(tonal[b] > alone * 0.99 && tonal[b] < alone * 2.5, "band \(b): \(tonal[b]) vs \(alone)")
            #expect(tonal[b] < noisy[b] / 4)
        }
    }

    @Test("a quiet band beside a loud one may go deeper than alone: it is masked by the spread")
    func loudNeighboursMask() {
        let quietAlone = depths(slot { $0 == 10 ? [Float](repeating: 0.001, count: 8) : [Float](repeating: 0, count: 8) })
        let quietBeside = depths(slot { $0 == 10 ? [Float](repeating: 0.001, count: 8) : ($0 == 9 ? [Float](repeating: 1, count: 8) : [0, 0, 0, 0, 0, 0, 0, 0]) })
        #expect(quietBeside[10] > 10 * quietAlone[10])
        #expect(quietAlone[11] == 0)
    }

    @Test("the margin scales every depth by its dB")
    func marginScales() {
        let base = depths(slot(noise)), raised = depths(slot(noise), margin: 6)
        for b in 0..<P.bandCount { #expect(abs(raised[b] / base[b] - pow(10, 6 / 20)) < 1e-3) }
    }
}
