import Foundation
import Testing
import QixAudio
@testable import QixWatermark

/// The masking limits that experiments and listening tests raise: checked on the way in,
/// and followed by the caps and by the embedder.
struct MaskingLimitsTests {
    @Test func refusesLimitsOutsideTheirRanges() throws {
        for (change, depth) in [(0, 0.5), (-1, 0.5), (6.5, 0.5), (.nan, 0.5), (2, 0), (2, 0.95), (2, .infinity)] as [(Float, Float)] {
            #expect(throws: WatermarkError.self, "\(change) dB, depth \(depth)") {
                try MaskingLimits(excitationChange: change, largestDepth: depth)
            }
        }
        #expect(MaskingLimits.standard == (try MaskingLimits(excitationChange: 1.9, largestDepth: 0.5)))
    }

    @Test func quietMarginIsCheckedAndAppliesToQuietSlotsOnly() throws {
        #expect(MaskingLimits.standard.quietMargin == -12)
        for margin in [-41, 21, .nan] as [Float] {
            #expect(throws: WatermarkError.self, "\(margin) dB") { try MaskingLimits.standard.withQuietMargin(margin) }
        }
        let limits = try MaskingLimits.standard.withMaskMargin(-6)
        // 3 dB under the median is the edge: 2.9 dB under is planned as every slot, 3.1 dB is quiet.
        #expect(limits.margin(slotEnergy: pow(10, -0.29), median: 1) == -6)
        #expect(limits.margin(slotEnergy: pow(10, -0.31), median: 1) == -12)
        #expect(try limits.withQuietMargin(nil).margin(slotEnergy: 0.01, median: 1) == -6)
        #expect(try MaskingLimits.standard.withQuietMargin(nil).margin(slotEnergy: 0.01, median: 1) == nil)
    }

    @Test("quiet slots are capped under their masked threshold, loud ones keep the excitation cap")
    func quietSlotsGetTheMarkTheirMaskingAllows() throws {
        // Noise whose second half is 20 dB quieter: a pause after speech, as far as the plan sees.
        var samples = TestSignals.noise(seconds: 4, rate: 16_000, level: 0.3).samples
        for i in (samples.count / 2)..<samples.count { samples[i] *= 0.1 }
        let spectra = try SpectralFrontEnd.spectra(of: AudioBufferView.mono16k(samples))
        let quiet = TileMasking.tiles(spectra).cap
        let plain = TileMasking.tiles(spectra, limits: try MaskingLimits.standard.withQuietMargin(nil)).cap
        let bands = WatermarkParameters.bandCount, slots = quiet.count / bands
        let loudSlots = 1..<(slots / 2 - 2), quietSlots = (slots / 2 + 2)..<(slots - 1)
        let tiles = { (range: Range<Int>) in range.flatMap { q in (q * bands)..<((q + 1) * bands) } }
        #expect(tiles(loudSlots).allSatisfy { quiet[$0] == plain[$0] })
        #expect(tiles(quietSlots).allSatisfy { quiet[$0] <= plain[$0] })
        let lowered = tiles(quietSlots).map { quiet[$0] }.reduce(0, +), before = tiles(quietSlots).map { plain[$0] }.reduce(0, +)
        #expect(lowered < 0.8 * before, "quiet slots' caps \(before) -> \(lowered)")
    }

    @Test("higher limits raise the caps, never past the largest depth")
    func capsFollowTheLimits() throws {
        let spectra = try SpectralFrontEnd.spectra(of: AudioBufferView.mono16k(
            TestSignals.noise(seconds: 3, rate: 16_000, level: 0.3).samples))
        let standard = TileMasking.tiles(spectra).cap
        let raised = TileMasking.tiles(spectra, limits: try MaskingLimits(excitationChange: 4, largestDepth: 0.7)).cap
        #expect(standard.max() ?? 0 <= 0.5)
        #expect(zip(standard, raised).allSatisfy { $1 >= $0 && $1 <= 0.7 })
        // The resolved low bands gain most: 1 - 10^(-4/20) = 0.37 against 0.196.
        let lowBand = stride(from: 0, to: raised.count, by: WatermarkParameters.bandCount)
        let lowStandard = lowBand.map { standard[$0] }.reduce(0, +), lowRaised = lowBand.map { raised[$0] }.reduce(0, +)
        #expect(lowRaised > 1.5 * lowStandard)
        #expect(raised.contains { $0 > 0.6 })
    }

    @Test("an embedder with higher limits marks deeper where the caps bind, at no lower SNR than asked")
    func embedderUsesItsLimits() throws {
        let host = TestSignals.bassUnderResolvedTones()
        func snr(_ masking: MaskingLimits) throws -> Double {
            let marked = try WatermarkEmbedder(key: .publicTestKey, payload: WatermarkPayload(message: 7),
                                               masking: masking).embed(host)
            return StreamingEmbedderTests.snr(host.samples, marked.samples, 0..<host.samples.count)
        }
        let standard = try snr(.standard), raised = try snr(try MaskingLimits(excitationChange: 4, largestDepth: 0.7))
        // The resolved tones' caps go from 1 - 10^(-1.9/20) = 0.196 to 1 - 10^(-4/20) = 0.369: 5.5 dB.
        #expect(standard > 25, "caps bind under the standard limits: \(standard) dB")
        #expect(abs(standard - raised - 5.5) < 1, "SNR \(standard) -> \(raised) dB")
        #expect(raised >= WatermarkParameters.targetSNR - 0.1)
    }
}
