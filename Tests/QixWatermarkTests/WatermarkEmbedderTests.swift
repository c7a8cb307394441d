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

    /// The masking model: the watermark follows the host, so silence stays silent and a
    /// quiet passage gets a proportionally quiet watermark.
    @Test func silenceStaysSilentAndWatermarkFollowsLevel() throws {
        let rate = 16_000
        let loud = TestSignals.noise(seconds: 2, rate: rate, level: 0.5).samples
        let quiet = TestSignals.noise(seconds: 2, rate: rate, level: 0.005, seed: 9).samples
        let silence = [Float](repeating: 0, count: 2 * rate)
        let host = AudioBuffer(samples: loud + silence + quiet, channels: 1, sampleRate: rate)
        let marked = try WatermarkEmbedder(key: key, payload: payload).embed(host)
        func energy(_ range: Range<Int>, _ values: (Int) -> Float) -> Double {
            range.reduce(0.0) { $0 + Double(values($1) * values($1)) }
        }
        let delta = { (i: Int) in marked.samples[i] - host.samples[i] }
        // Away from the edges (one frame) of the silent stretch, the watermark is exactly zero.
        #expect(energy((2 * rate + 512)..<(4 * rate - 512), delta) == 0)
        let loudRatio = energy(4000..<(2 * rate - 4000), delta) / energy(4000..<(2 * rate - 4000)) { host.samples[$0] }
        let quietRatio = energy((4 * rate + 4000)..<(6 * rate - 4000), delta)
            / energy((4 * rate + 4000)..<(6 * rate - 4000)) { host.samples[$0] }
        // White noise has ~69 % of its energy in 0.5-6 kHz: depth^2 x 0.69 ~ -21.6 dB, whatever the level.
        #expect(abs(10 * log10(loudRatio) - 10 * log10(quietRatio)) < 1)
        #expect(10 * log10(loudRatio) < -20 && 10 * log10(loudRatio) > -24)
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
