import Foundation
import Testing
import QixAudio
@testable import QixWatermark

/// The masking model: a tile's depth is capped where the ear's filters would see its
/// excitation change by more than `MaskingLimits.standard.excitationChange`, given the tile's own spectrum.
struct TileMaskingTests {
    typealias P = WatermarkParameters

    /// Caps of every (slot, band) tile of a 16 kHz mono signal.
    func tiles(_ samples: [Float]) throws -> (energy: [Float], cap: [Float]) {
        TileMasking.tiles(try SpectralFrontEnd.spectra(of: AudioBufferView.mono16k(samples)))
    }

    @Test("the depth limit solves both sides of the excitation ratio")
    func largestDepth() {
        let upper = pow(10, MaskingLimits.standard.excitationChange / 10), lower = pow(10, -MaskingLimits.standard.excitationChange / 10)
        // A filter that sees one half alone (beta = gamma = 1): the lowered side limits, (1 - d)^2 = lower.
        let resolved = TileMasking.largestDepth(beta: 1, gamma: 1, upper: upper, lower: lower)
        #expect(abs(resolved - (1 - lower.squareRoot())) < 1e-5)
        // Halves in balance (beta = 0): only the raised side, 1 + d^2 = upper.
        let balanced = TileMasking.largestDepth(beta: 0, gamma: 1, upper: upper, lower: lower)
        #expect(abs(balanced - (upper - 1).squareRoot()) < 1e-5)
        // In between, both sides hold at the limit and not beyond it.
        for (beta, gamma) in [(0.3, 1.0), (0.5, 0.8), (0.9, 0.95)] as [(Float, Float)] {
            let d = TileMasking.largestDepth(beta: beta, gamma: gamma, upper: upper, lower: lower)
            #expect(d > 0 && d < balanced)
            #expect(1 + 2 * d * beta + d * d * gamma <= upper * 1.0001 && 1 - 2 * d * beta + d * d * gamma >= lower * 0.9999)
            let further = d * 1.01
            #expect(1 + 2 * further * beta + further * further * gamma > upper || 1 - 2 * further * beta + further * further * gamma < lower)
        }
    }

    @Test("over white noise the cap rises with the auditory filters' width, to 0.5 above 3 kHz")
    func noiseCapsFollowTheEar() throws {
        let (energy, cap) = try tiles(TestSignals.noise(seconds: 3, rate: 16_000, level: 0.3).samples)
        let slots = energy.count / P.bandCount
        func mean(_ band: Int) -> Float {
            let values = (2..<(slots - 2)).map { cap[$0 * P.bandCount + band] }
            return values.reduce(0, +) / Float(values.count)
        }
        let lowest = mean(0), middle = mean(6), top = mean(P.bandCount - 1)
        // Under 1 kHz a filter resolves the halves: about the resolved limit (0.2), a bit more
        // where the noise happens to even the halves out.
        #expect(lowest > 0.18 && lowest < 0.3, "500 Hz band: \(lowest)")
        #expect(middle > lowest + 0.05, "2 kHz band: \(middle)")
        #expect(top > 0.45 && top <= MaskingLimits.standard.largestDepth, "6 kHz band: \(top)")
    }

    @Test("a steady tone keeps its band at the resolved limit; silence has no energy and no cap")
    func toneAndSilence() throws {
        let rate = 16_000
        let noise = TestSignals.noise(seconds: 2, rate: rate, level: 0.001).samples
        // 3062.5 Hz is bin 98, inside the up half of band 10 (3 to 3.125 kHz; a tone on the halves'
        // boundary would split its power between them, and its change with it): over noise alone
        // the band's cap is near 0.5.
        let tone = (0..<(2 * rate)).map { Float(0.5 * sin(2 * Double.pi * 3062.5 * Double($0) / Double(rate))) }
        let (energy, cap) = try tiles(zip(tone, noise).map { $0 + $1 } + [Float](repeating: 0, count: 2 * rate))
        let slotsPerPart = 2 * rate / P.hop / P.hopsPerSlot
        let resolved = 1 - pow(10, -MaskingLimits.standard.excitationChange / 20)
        for q in 2..<(slotsPerPart - 2) {
            #expect(abs(cap[q * P.bandCount + 10] - resolved) < 0.02, "tone: \(cap[q * P.bandCount + 10])")
            for b in 0..<P.bandCount {
                #expect(energy[(q + slotsPerPart) * P.bandCount + b] == 0 && cap[(q + slotsPerPart) * P.bandCount + b] == 0)
            }
        }
    }
}
