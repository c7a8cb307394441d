import Foundation
import Testing
import QixAudio
@testable import QixWatermark

struct WatermarkEmbedderTests {
    let key = WatermarkKey.publicTestKey
    let payload = WatermarkPayload(message: 0xcafe0042)

    @Test func keepsShapeAndMeetsSNR() throws {
        let host = TestSignals.music(seconds: 4)
        let marked = try WatermarkEmbedder(key: key, payload: payload).embed(host)
        #expect(marked.frameCount == host.frameCount)
        #expect(marked.channels == host.channels && marked.sampleRate == host.sampleRate)
        var signal = 0.0, noise = 0.0
        for i in 0..<host.samples.count {
            signal += Double(host.samples[i] * host.samples[i])
            let d = Double(marked.samples[i] - host.samples[i])
            noise += d * d
        }
        let snr = 10 * log10(signal / noise)
        #expect(snr >= 20 && snr < 35, "SNR \(snr) dB")
    }

    /// `strength` scales the mark's amplitude everywhere: the budget and the masking caps,
    /// so a host whose caps bind before the budget moves by 20 log10(strength) dB too. Here
    /// a bass line carries most of the energy under the band, and three quiet steady tones
    /// in it are resolved partials, held at their caps.
    @Test func strengthScalesTheMarkWhereCapsBind() throws {
        let host = TestSignals.bassUnderResolvedTones()
        func snr(_ strength: Double) throws -> Double {
            let marked = try WatermarkEmbedder(key: key, payload: payload, strength: strength).embed(host)
            return StreamingEmbedderTests.snr(host.samples, marked.samples, 0..<host.samples.count)
        }
        let unit = try snr(1), double = try snr(2), half = try snr(0.5)
        #expect(unit > 25, "caps bind at strength 1: \(unit) dB")
        #expect(abs(unit - double - 6.02) < 0.5, "strength 2: \(double) dB against \(unit)")
        #expect(abs(half - unit - 6.02) < 0.5, "strength 0.5: \(half) dB against \(unit)")
    }

    /// The masking model: silence stays silent; no passage gets a watermark closer than
    /// the per-tile caps (at least 6 dB, `TileMasking`) to the host; quiet passages, cheap in
    /// the SNR budget, get the mark their caps allow, which under a loud passage's median is
    /// what their masked threshold allows (`MaskingLimits.quietMargin`); and the whole plan
    /// follows the level (a quieter copy gets the same watermark, quieter by as much).
    @Test func silenceStaysSilentAndWatermarkFollowsLevel() throws {
        let rate = 16_000
        let loud = TestSignals.noise(seconds: 2, rate: rate, level: 0.5).samples
        let quiet = TestSignals.noise(seconds: 2, rate: rate, level: 0.005, seed: 9).samples
        let silence = [Float](repeating: 0, count: 2 * rate)
        let host = AudioBuffer(samples: loud + silence + quiet, channels: 1, sampleRate: rate)
        // At scale 1 (the venue profile), where the masking caps are the model's own.
        let marked = try WatermarkEmbedder(key: key, payload: payload, profile: .venue).embed(host)
        func energy(_ range: Range<Int>, _ values: (Int) -> Float) -> Double {
            range.reduce(0.0) { $0 + Double(values($1) * values($1)) }
        }
        let delta = { (i: Int) in marked.samples[i] - host.samples[i] }
        // Away from the edges (one frame) of the silent stretch, the watermark is exactly zero.
        #expect(energy((2 * rate + 512)..<(4 * rate - 512), delta) == 0)
        let loudRange = 4000..<(2 * rate - 4000), quietRange = (4 * rate + 4000)..<(6 * rate - 4000)
        let loudDB = 10 * log10(energy(loudRange, delta) / energy(loudRange) { host.samples[$0] })
        let quietDB = 10 * log10(energy(quietRange, delta) / energy(quietRange) { host.samples[$0] })
        // The quiet noise is cheap in the budget, so every tile sits at its cap (`TileMasking`):
        // white noise has 69 % of its energy in 0.5-6 kHz, so the plan is 0.69 x the tiles'
        // energy-weighted mean of cap^2, which the synthesis (overlap-add of sqrt-Hann frames)
        // lands under: about 0.8 dB for side-by-side halves, about 1.9 dB for format 3's 2-bin
        // groups (the window's main lobe spreads each group's gain into its neighbours of the
        // other sign); never closer than 6 dB to the host over the band (-7.6 dB).
        let synthesisLoss = WatermarkFormat.current.bandLayout == .halves ? 1.5 : 2.5
        // The caps as planned, over the whole host: the quiet passage is 40 dB under its median.
        let (tileEnergy, cap) = TileMasking.tiles(try SpectralFrontEnd.spectra(of: AudioBufferView.mono16k(host.samples)))
        let bands = WatermarkParameters.bandCount
        let slotSamples = WatermarkParameters.hop * WatermarkParameters.hopsPerSlot
        let quietTiles = ((quietRange.lowerBound / slotSamples)..<(quietRange.upperBound / slotSamples)).flatMap { q in (q * bands)..<((q + 1) * bands) }
        let weighted = quietTiles.map { Double(tileEnergy[$0] * cap[$0] * cap[$0]) }.reduce(0, +)
            / quietTiles.map { Double(tileEnergy[$0]) }.reduce(0, +)
        let atCaps = 10 * log10(0.69 * weighted)
        #expect(quietDB > atCaps - synthesisLoss && quietDB < atCaps + 0.5 && quietDB < 10 * log10(0.69 * 0.25),
                "quiet passage \(quietDB) dB, at caps \(atCaps) dB")
        #expect(loudDB < -20 && loudDB > -24, "loud passage \(loudDB) dB")
        let softer = AudioBuffer(samples: host.samples.map { $0 * 0.01 }, channels: 1, sampleRate: rate)
        let softerMarked = try WatermarkEmbedder(key: key, payload: payload, profile: .venue).embed(softer)
        let softerDB = 10 * log10(energy(loudRange) { softerMarked.samples[$0] - softer.samples[$0] }
            / energy(loudRange) { softer.samples[$0] })
        #expect(abs(softerDB - loudDB) < 0.1, "\(softerDB) vs \(loudDB) dB")
    }

    @Test func rejectsUnusableAudio() throws {
        let embedder = try WatermarkEmbedder(key: key, payload: payload)
        #expect(throws: WatermarkError.self) {
            try embedder.embed(TestSignals.noise(seconds: 2, rate: 8000, level: 0.3))
        }
        #expect(throws: WatermarkError.self) {
            try embedder.embed(TestSignals.noise(seconds: 0.1, rate: 16_000, level: 0.3))
        }
        var nan = TestSignals.noise(seconds: 1, rate: 16_000, level: 0.3)
        nan.samples[100] = .nan
        #expect(throws: WatermarkError.self) { try embedder.embed(nan) }
        #expect(throws: WatermarkError.self) { try WatermarkEmbedder(key: key, payload: payload, strength: 0) }
    }
}
