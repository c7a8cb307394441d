import Foundation
import Testing
import QixAudio
import QixTestSupport

/// Encoding on its own thread: blocks arrive in order and whole, nothing is at the path
/// before `finish`, and `abandon` leaves nothing behind.
struct BackgroundAudioWriterTests {
    @Test func writesEveryBlockInOrder() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tone = TestSignals.sine(frequency: 523, amplitude: 0.6, seconds: 2, sampleRate: 48_000, channels: 2)
        let path = "\(dir)/out.flac"
        let background = BackgroundAudioWriter(try AudioFileWriter(path: path, sampleRate: 48_000, channels: 2), depth: 2)
        try tone.samples.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + 2 * 777)
                try background.write(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        try background.finish()
        let direct = "\(dir)/direct.flac"
        try AudioFileWriter.write(tone, to: direct)
        #expect(try AudioFileReader.readAll(path: path) == AudioFileReader.readAll(path: direct))
    }

    @Test func abandonLeavesNothing() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let background = BackgroundAudioWriter(try AudioFileWriter(path: "\(dir)/out.wav", sampleRate: 16_000, channels: 1))
        try [Float](repeating: 0.25, count: 16_000).withUnsafeBufferPointer { try background.write($0) }
        background.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
