import Foundation
import Testing
import QixAudio
import QixTestSupport

/// The broadcast formats libsndfile does not read, encoded by ffmpeg on the fly and read
/// back through `AudioFileReader`: the right container, codec, rate, channels, length and tone.
@Suite("FFmpeg inputs", .serialized)
struct LibavDecoderTests {
    /// A 3 s stereo 1 kHz tone at half scale, written as WAV at `rate`.
    static func tone(_ dir: String, rate: Int) throws -> String {
        let path = "\(dir)/tone\(rate).wav"
        try AudioFileWriter.write(TestSignals.sine(frequency: 1000, amplitude: 0.5, seconds: 3, sampleRate: rate, channels: 2), to: path)
        return path
    }

    /// Reads `path` and checks what users see: the description, the length and the tone.
    static func check(_ path: String, container: String, encoding: String, rate: Int, channels: Int = 2,
                      stream: Int = 0, streams: Int = 1) throws {
        let reader = try AudioFileReader(path: path)
        #expect(reader.info.container == container, "\(path)")
        #expect(reader.info.encoding == encoding, "\(path)")
        #expect(reader.info.sampleRate == rate && reader.info.channels == channels, "\(path): \(reader.info)")
        #expect(reader.info.stream == stream && reader.info.streams == streams, "\(path): \(reader.info)")
        let audio = try reader.readAll()
        // Codecs add priming and pad the last frame; the length is the tone's within 0.1 s.
        #expect(abs(Double(audio.frameCount) / Double(rate) - 3) < 0.1, "\(path): \(audio.frameCount) frames")
        #expect(reader.damage == nil, "\(path): \(reader.damage?.description ?? "")")
        let middle = Array(audio.mixedToMono().samples[rate..<(2 * rate)])
        let (frequency, amplitude) = TestSignals.dominantTone(middle, sampleRate: rate)
        #expect(abs(frequency - 1000) < 10, "\(path): \(frequency) Hz")
        #expect(abs(amplitude - 0.5) < 0.05, "\(path): amplitude \(amplitude)")
    }

    @Test("AAC-LC in M4A and ADTS, MPEG-TS with AAC and MP2, AC-3, MP4 with a video track")
    func readsBroadcastFormats() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cd = try Self.tone(dir, rate: 44100), broadcast = try Self.tone(dir, rate: 48000)
        try FFmpegTool.encode(cd, to: "\(dir)/lc.m4a", ["-c:a", "aac", "-b:a", "64k"])
        try Self.check("\(dir)/lc.m4a", container: "MP4", encoding: "AAC_LC", rate: 44100)
        try FFmpegTool.encode(cd, to: "\(dir)/raw.aac", ["-c:a", "aac", "-b:a", "64k"])
        try Self.check("\(dir)/raw.aac", container: "ADTS", encoding: "AAC_LC", rate: 44100)
        try FFmpegTool.encode(broadcast, to: "\(dir)/aac.ts", ["-c:a", "aac", "-b:a", "128k"])
        try Self.check("\(dir)/aac.ts", container: "MPEGTS", encoding: "AAC_LC", rate: 48000)
        try FFmpegTool.encode(broadcast, to: "\(dir)/mp2.ts", ["-c:a", "mp2", "-b:a", "192k"])
        try Self.check("\(dir)/mp2.ts", container: "MPEGTS", encoding: "MP2", rate: 48000)
        try FFmpegTool.encode(broadcast, to: "\(dir)/tone.ac3", ["-c:a", "ac3", "-b:a", "192k"])
        try Self.check("\(dir)/tone.ac3", container: "AC3", encoding: "AC3", rate: 48000)
        // Video first, as cameras and broadcasters write it: the first audio track is read.
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=blue:s=64x48:r=10:d=3", "-i", broadcast,
                            "-map", "0:v", "-map", "1:a", "-c:v", "mpeg4", "-c:a", "aac", "-b:a", "96k", "\(dir)/video.mp4"])
        try Self.check("\(dir)/video.mp4", container: "MP4", encoding: "AAC_LC", rate: 48000, stream: 1, streams: 2)
    }

    @Test("the decoder is chosen by content: AAC named .wav and a WAV named .m4a both read")
    func contentNotName() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tone = try Self.tone(dir, rate: 44100)
        try FFmpegTool.encode(tone, to: "\(dir)/x.m4a", ["-c:a", "aac", "-b:a", "64k"])
        try FileManager.default.moveItem(atPath: "\(dir)/x.m4a", toPath: "\(dir)/misnamed.wav")
        try Self.check("\(dir)/misnamed.wav", container: "MP4", encoding: "AAC_LC", rate: 44100)
        try FileManager.default.copyItem(atPath: tone, toPath: "\(dir)/misnamed.m4a")
        #expect(try AudioFileReader(path: "\(dir)/misnamed.m4a").info.container == "WAV")
    }

    @Test("a WAV streamed to a pipe (placeholder lengths in its header) is read to its end, with no warning")
    func streamedWAV() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tone = try Self.tone(dir, rate: 48000)
        try FFmpegTool.run(["-i", tone, "-f", "wav", "pipe:1"], stdout: "\(dir)/streamed.wav")
        let header = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/streamed.wav")).prefix(8)
        #expect(Array(header.suffix(4)) == [0xFF, 0xFF, 0xFF, 0xFF], "ffmpeg wrote a pipe header")
        let reader = try AudioFileReader(path: "\(dir)/streamed.wav")
        #expect(try reader.readAll().frameCount == 3 * 48000)
        #expect(reader.damage == nil)
    }

    @Test("a video file without audio and an MP4 cut before its index are one-line errors")
    func unreadable() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=red:s=32x32:r=5:d=1", "-c:v", "mpeg4", "\(dir)/silent.mp4"])
        try FFmpegTool.encode(try Self.tone(dir, rate: 44100), to: "\(dir)/whole.m4a", ["-c:a", "aac"])
        try FFmpegTool.cut("\(dir)/whole.m4a", to: "\(dir)/cut.m4a")
        for (path, phrase) in [("\(dir)/silent.mp4", "no audio stream"), ("\(dir)/cut.m4a", "moov atom not found")] {
            do {
                _ = try AudioFileReader.readAll(path: path)
                Issue.record("\(path) read")
            } catch let error as AudioError {
                #expect(error.subject == path && error.reason.contains(phrase), "\(error)")
                #expect(!error.description.contains("\n"))
            }
        }
    }

    @Test("a concat list or a playlist naming another file is refused, not followed")
    func listsAreNotFollowed() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // FFmpeg resolves a list's relative names against the working directory (the list
        // is read through QixKit's own I/O, so it has no folder): put a real target there.
        let local = "qix-list-target-\(UUID().uuidString).wav"
        try FileManager.default.copyItem(atPath: try Self.tone(dir, rate: 44100), toPath: local)
        defer { try? FileManager.default.removeItem(atPath: local) }
        try "ffconcat version 1.0\nfile '\(local)'\n".write(toFile: "\(dir)/list.txt", atomically: true, encoding: .utf8)
        let target = FileManager.default.currentDirectoryPath + "/" + local
        try "#EXTM3U\n#EXT-X-TARGETDURATION:3\n#EXTINF:3,\n\(target)\n#EXT-X-ENDLIST\n".write(toFile: "\(dir)/list.m3u8", atomically: true, encoding: .utf8)
        for path in ["\(dir)/list.txt", "\(dir)/list.m3u8"] {
            #expect(throws: AudioError.self, "\(path)") { _ = try AudioFileReader.readAll(path: path) }
        }
    }
}
