import Foundation
import Testing
import QixAudio

/// A damaged or fake MP3 speaks in qix's voice: libmpg123's own stderr lines never reach
/// the user; a file that is no MP3 says so instead of "File does not exist"; a damaged one
/// that still decodes gives one warning.
@Suite("damaged MP3 input", .serialized)
struct DamagedMP3Tests {
    @Test func decoderMessagesAreFoldedIntoOneLine() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let good = "\(dir)/good.mp3"
        let tone = (0..<(44_100 * 4 * 2)).map { Float(0.4 * sin(Double($0 / 2) * 0.06)) }
        try AudioFileWriter.write(AudioBuffer(samples: tone, channels: 2, sampleRate: 44_100), to: good)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: good)))
        var state: UInt64 = 3
        for _ in 0..<200 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[2_000 + Int(state >> 33) % (bytes.count - 2_000)] ^= 0xff
        }
        try Data(bytes).write(to: URL(fileURLWithPath: "\(dir)/damaged.mp3"))
        try Data((0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }).write(to: URL(fileURLWithPath: "\(dir)/junk.mp3"))

        for command in [["info"], ["detect"]] {
            let damaged = try QixProcess.run(command + ["\(dir)/damaged.mp3"])
            #expect(damaged.status == 0, "\(damaged.stderr)")
            #expect(damaged.stderrLines.allSatisfy { $0.hasPrefix("qix: ") }, "\(command): \(damaged.stderr)")
            #expect(damaged.stderrLines.filter { $0.contains("the decoder met damaged audio") }.count == 1, "\(damaged.stderr)")

            let junk = try QixProcess.run(command + ["\(dir)/junk.mp3"])
            #expect(junk.status == 1)
            #expect(junk.stderrLines.allSatisfy { $0.hasPrefix("qix: ") }, "\(command): \(junk.stderr)")
            let error = try #require(junk.stderrLines.last)
            #expect(error.hasPrefix("qix: error: cannot read audio (\(dir)/junk.mp3): "), "\(error)")
            #expect(!error.contains("does not exist") && error.contains("damaged or not audio"), "\(error)")
        }
    }
}
