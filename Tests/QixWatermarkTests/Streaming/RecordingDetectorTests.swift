import Testing
import QixAudio
@testable import QixWatermark

/// Whole recordings in chunks: an ID that runs across many chunk boundaries is reported
/// once, over its whole stretch, exactly as whole-input detection reports it.
struct RecordingDetectorTests {
    static let key = try! WatermarkKey(hex: "0123456789abcdeffedcba9876543210")

    @Test func chunkedDetectionMergesAcrossBoundaries() throws {
        let music = try TestSignals.corpus("a02")
        let marked = try WatermarkEmbedder(key: Self.key, payload: WatermarkPayload(message: 0xFEEDBEEF)).embed(music)
        let silence = AudioBuffer(samples: [Float](repeating: 0, count: 5 * 44_100 * 2), channels: 2, sampleRate: 44_100)
        // 5 s silence, 30 s marked (two copies), 5 s silence: 40 s.
        let audio = AudioBuffer(samples: silence.samples + marked.samples + marked.samples + silence.samples,
                                channels: 2, sampleRate: 44_100)
        let detector = WatermarkDetector(key: Self.key)
        let recording = try RecordingDetector(detector: detector, inputRate: 44_100, channels: 2,
                                              chunkSeconds: 8, overlapSeconds: 4)
        var offset = 0
        while offset < audio.samples.count {
            let end = min(audio.samples.count, offset + 3_001 * 2)
            audio.samples.withUnsafeBufferPointer { recording.feed(UnsafeBufferPointer(rebasing: $0[offset..<end])) }
            offset = end
        }
        let found = recording.finish(duration: audio.duration)
        #expect(found.map(\.hex) == ["feedbeef"], "\(found)")
        if let d = found.first {
            #expect(abs(d.start - 5) < 1 && abs(d.end - 35) < 1, "\(d.start)-\(d.end)")
        }
    }

    /// Several keys over one front end: each detector's detections come back on their own,
    /// so a caller can say which key matched.
    @Test func eachDetectorReportsItsOwnKey() throws {
        let other = try WatermarkKey(hex: "00112233445566778899aabbccddeeff")
        let music = try TestSignals.corpus("a02")
        let marked = try WatermarkEmbedder(key: Self.key, payload: WatermarkPayload(message: 0xFEEDBEEF)).embed(music)
        let recording = try RecordingDetector(detectors: [WatermarkDetector(key: other), WatermarkDetector(key: Self.key)],
                                              inputRate: 44_100, channels: 2)
        marked.samples.withUnsafeBufferPointer { recording.feed($0) }
        let found = recording.finishEach(duration: marked.duration)
        #expect(found.map { $0.map(\.hex) } == [[], ["feedbeef"]], "\(found)")
    }

    @Test func mergeJoinsTouchingStretchesOfOneIDOnly() {
        let a = WatermarkDetection(message: 1, start: 0, end: 10, score: 5, speed: 1)
        let b = WatermarkDetection(message: 1, start: 10.5, end: 20, score: 9, speed: 1.01)
        let c = WatermarkDetection(message: 2, start: 12, end: 14, score: 7, speed: 1)
        let d = WatermarkDetection(message: 1, start: 30, end: 33, score: 6, speed: 1)
        let merged = RecordingDetector.merge([d, c, b, a])
        #expect(merged.map(\.message) == [1, 2, 1])
        #expect(merged[0].start == 0 && merged[0].end == 20 && merged[0].score == 9 && merged[0].speed == 1.01)
    }
}
