import Foundation
import Testing
import QixAudio

/// `qix info` as scripts use it: JSON lines, raw stdin streams, and bad inputs mixed with good ones.
@Suite("qix info")
struct InfoCommandTests {
    static let clip = "\(QixProcess.repository)/corpus/clips/a03_music_blues_midi-fluidr3_openmsx-city-blues.flac"

    static func json(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("--json prints one object per input with format, rate, channels, duration and levels")
    func jsonOutput() throws {
        let result = try QixProcess.run(["info", "--json", Self.clip, Self.clip])
        #expect(result.status == 0)
        #expect(result.stdoutLines.count == 2)
        let object = try Self.json(result.stdoutLines[0])
        #expect(object["file"] as? String == Self.clip)
        #expect(object["container"] as? String == "FLAC")
        #expect(object["sample_rate"] as? Int == 44100)
        #expect(object["channels"] as? Int == 1)
        #expect(abs((object["duration"] as? Double ?? 0) - 15) < 1e-9)
        let peak = try #require(object["peak_dbfs"] as? Double)
        let rms = try #require(object["rms_dbfs"] as? Double)
        #expect(peak <= 0 && rms < peak)
        #expect(result.stderr.isEmpty)
    }

    @Test("raw s16le stereo on stdin reports the right duration; a partial last frame is dropped with a warning")
    func rawStdin() throws {
        // 0.75 s of 48 kHz stereo s16le (36000 frames x 4 bytes) plus 3 stray bytes.
        var bytes = Data(count: 36000 * 4)
        bytes.withUnsafeMutableBytes { raw in
            for i in 0..<(36000 * 2) {
                let v = Int16(10000 * sin(Double(i / 2) * 0.05))
                raw.storeBytes(of: v.littleEndian, toByteOffset: 2 * i, as: Int16.self)
            }
        }
        let whole = try QixProcess.run(["info", "--raw", "--format", "s16le", "--rate", "48000", "--channels", "2", "--json", "-"],
                                       stdin: bytes)
        #expect(whole.status == 0)
        #expect(try Self.json(whole.stdoutLines[0])["frames"] as? Int == 36000)
        #expect(whole.stderr.isEmpty)

        let cut = try QixProcess.run(["info", "--raw", "--format", "s16le", "--rate", "48000", "--channels", "2", "--json", "-"],
                                     stdin: bytes + Data([1, 2, 3]))
        #expect(cut.status == 0)
        let object = try Self.json(cut.stdoutLines[0])
        #expect(abs((object["duration"] as? Double ?? 0) - 0.75) < 1e-9)
        #expect(cut.stderr.contains("qix: warning:") && cut.stderr.contains("dropped 3 bytes"))
    }

    @Test("a WAV or FLAC file on stdin reads like the file")
    func fileOnStdin() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.clip))
        let result = try QixProcess.run(["info", "--json", "-"], stdin: data)
        #expect(result.status == 0)
        #expect(try Self.json(result.stdoutLines[0])["frames"] as? Int == 661_500)
    }

    @Test("bad inputs: one error line each, exit 1, and the good inputs are still reported")
    func badInputs() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = FileManager.default.createFile(atPath: "\(dir)/empty.wav", contents: Data())
        _ = FileManager.default.createFile(atPath: "\(dir)/notes.wav", contents: Data("meeting notes\n".utf8))
        let tone = AudioBuffer(samples: [Float](repeating: 0.25, count: 96000), channels: 2, sampleRate: 48000)
        try AudioFileWriter.write(tone, to: "\(dir)/good.wav")
        let good = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/good.wav"))
        try good.prefix(1000).write(to: URL(fileURLWithPath: "\(dir)/cut.wav"))

        let inputs = ["\(dir)/missing.wav", dir, "\(dir)/empty.wav", Self.clip, "\(dir)/cut.wav", "\(dir)/notes.wav", "\(dir)/good.wav"]
        let result = try QixProcess.run(["info"] + inputs)
        #expect(result.status == 1)
        #expect(result.stdoutLines.count == 2, "the two readable files are still reported")
        #expect(result.stdoutLines.first?.hasPrefix(Self.clip) == true)
        let errors = result.stderrLines
        #expect(errors.count == 5)
        for (line, path) in zip(errors, ["\(dir)/missing.wav", dir, "\(dir)/empty.wav", "\(dir)/cut.wav", "\(dir)/notes.wav"]) {
            #expect(line.hasPrefix("qix: error: ") && line.contains("(\(path)):"), "\(line)")
        }
    }

    @Test("an unknown raw --format is bad input (exit 1); an unknown flag is bad usage (exit 2)")
    func formatAndUsage() throws {
        let format = try QixProcess.run(["info", "--raw", "--format", "u8", "-"], stdin: Data([0, 0]))
        #expect(format.status == 1)
        #expect(format.stderrLines == ["qix: error: unknown sample format (--format): 'u8'; use one of s16le, s24le, s32le, f32le"])
        let usage = try QixProcess.run(["info", "--no-such-flag", Self.clip])
        #expect(usage.status == 2)
        #expect(usage.stderrLines.count == 1 && usage.stderr.hasPrefix("qix: error: "))
        #expect(usage.stdout.isEmpty)
    }
}
