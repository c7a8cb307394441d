import Testing
import QixAudio
@testable import QixWatermark

/// The thorough candidate ranking of short searches: sync peaks ranked by the fit of
/// their most likely codeword.
struct ThoroughSearchTests {
    typealias P = WatermarkParameters
    let key = WatermarkKey.publicTestKey
    let message: UInt32 = 0x5eed1234

    /// A folded window holding `payload`'s chips at `level` over unit noise, the frame
    /// starting `shift` hops into it.
    func window(_ layout: WatermarkLayout, payload: UInt32, level: Float, shift: Int, seed: UInt64) -> [Float] {
        var noise = TestSignals.Noise(state: seed)
        let chips = layout.chips(for: WatermarkPayload(message: payload), key: key)
        let period = P.hopsPerFrame
        var window = [Float](repeating: 0, count: P.bandCount * period)
        for b in 0..<P.bandCount {
            for r in 0..<period {
                window[b * period + (r + shift) % period] = level * chips[(r / P.hopsPerSlot) * P.bandCount + b] + noise.next()
            }
        }
        return window
    }

    @Test func syncPeaksStartWithTheCorrelationsBest() {
        let layout = WatermarkLayout(key: key)
        let correlator = SyncCorrelator(layout: layout)
        for shift in [0, 42, 191] {
            let (offset, z) = correlator.correlate(window(layout, payload: 7, level: 0.2, shift: shift, seed: 11))
            let peaks = correlator.peaks(4)
            #expect(peaks.count == 4)
            #expect(peaks[0].offset == offset && peaks[0].z == z)
            #expect(Set(peaks.map(\.offset)).count == 4)
            #expect(zip(peaks, peaks.dropFirst()).allSatisfy { $0.z >= $1.z })
        }
    }

    @Test func codewordFitIsHighestAtTheTrueOffset() {
        let layout = WatermarkLayout(key: key)
        let decoder = FrameDecoder(layout: layout, key: key)
        let shift = 77
        // Weak enough that the 96 sync tiles alone are unsure, strong enough to decode.
        let marked = window(layout, payload: message, level: 0.12, shift: shift, seed: 23)
        let fitAtTruth = decoder.fit(tiles: decoder.tiles(marked, offset: shift))
        for offset in stride(from: 0, to: P.hopsPerFrame, by: 5) where abs(offset - shift) > 2 {
            #expect(decoder.fit(tiles: decoder.tiles(marked, offset: offset)) < fitAtTruth, "offset \(offset)")
        }
    }

    @Test func thoroughAndFastSearchesAgreeOnCleanAndUnmarkedClips() throws {
        let marked = try WatermarkEmbedder(key: key, payload: WatermarkPayload(message: message))
            .embed(TestSignals.corpus("a05", seconds: 8))
        let clip = marked.slice(frames: Int(1.3 * Double(marked.sampleRate))..<Int(5.3 * Double(marked.sampleRate)))
        let thorough = WatermarkDetector(key: key, thoroughSearchSeconds: .infinity)
        let fast = WatermarkDetector(key: key, thoroughSearchSeconds: 0)
        #expect(try thorough.detect(clip).map(\.message) == [message])
        #expect(try fast.detect(clip).map(\.message) == [message])
        let other = try WatermarkKey(hex: "00112233445566778899aabbccddeeff")
        #expect(try WatermarkDetector(key: other, thoroughSearchSeconds: .infinity).detect(clip).isEmpty)
        for seed: UInt64 in [4, 9] {
            #expect(try thorough.detect(TestSignals.music(seconds: 5, seed: seed)).isEmpty)
        }
        #expect(try thorough.detect(TestSignals.corpus("a02", seconds: 5)).isEmpty)
    }
}
