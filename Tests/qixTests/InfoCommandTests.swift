import Foundation
import Testing
import QixAudio
import QixTestSupport

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

    /// A FLAC with flipped bits in three frames: on stdin it was decoded by libsndfile, which
    /// stops at the first bad frame (exit 1), while the file went on through libFLAC and the
    /// own decoder; the same bytes now give the same answers either way.
    @Test("a damaged FLAC on stdin gives what the file gives, to info and detect")
    func damagedFLACOnStdin() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.clip))
        for offset in [100_000, 200_003, 300_007] { bytes[offset] ^= 0x10 }
        let file = "\(dir)/flipped.flac"
        try bytes.write(to: URL(fileURLWithPath: file))
        for command in [["info", "--json"], ["detect", "--json"]] {
            let fromFile = try QixProcess.run(command + [file])
            let fromStdin = try QixProcess.run(command + ["-"], stdin: bytes)
            #expect(fromFile.status == 0 && fromStdin.status == 0, "\(command): \(fromStdin.stderr)")
            #expect(fromFile.stdout.replacingOccurrences(of: file, with: "-") == fromStdin.stdout, "\(command)")
        }
    }

    @Test("bad inputs: one error line each, exit 1, and the good inputs are still reported; a cut WAV is read up to the cut, with one warning")
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
        #expect(result.stdoutLines.count == 3, "the readable files, the cut one too, are still reported")
        #expect(result.stdoutLines.first?.hasPrefix(Self.clip) == true)
        #expect(result.stdoutLines.dropFirst().first?.hasPrefix("\(dir)/cut.wav: WAV PCM_16") == true)
        let errors = result.stderrLines.filter { $0.hasPrefix("qix: error: ") }
        #expect(errors.count == 4)
        for (line, path) in zip(errors, ["\(dir)/missing.wav", dir, "\(dir)/empty.wav", "\(dir)/notes.wav"]) {
            #expect(line.contains("(\(path)):"), "\(line)")
        }
        let warnings = result.stderrLines.filter { $0.hasPrefix("qix: warning: ") }
        #expect(warnings.count == 1 && warnings.first?.contains("\(dir)/cut.wav: truncated input: audio from 0.0") == true
                && warnings.first?.contains("to 1.000 s is missing") == true, "\(warnings)")
        #expect(result.stderrLines.count == 5)
    }

    @Test("FFmpeg inputs name container, codec and stream: a video file's AAC track and an MPEG-TS with MP2, from the file and from stdin")
    func libavInputs() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FFmpegTool.run(["-f", "lavfi", "-i", "testsrc=s=64x48:r=10:d=2", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:d=2",
                            "-map", "0:v", "-map", "1:a", "-c:v", "mpeg4", "-c:a", "aac", "\(dir)/clip.mp4"])
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=frequency=500:sample_rate=48000:d=2", "-ac", "2", "-c:a", "mp2", "\(dir)/feed.ts"])
        for (name, container, encoding, stream, streams, channels) in [("clip.mp4", "MP4", "AAC_LC", 1, 2, 1), ("feed.ts", "MPEGTS", "MP2", 0, 1, 2)] {
            let path = "\(dir)/\(name)"
            let file = try QixProcess.run(["info", "--json", path])
            let piped = try QixProcess.run(["info", "--json", "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(file.status == 0 && piped.status == 0 && file.stderr.isEmpty && piped.stderr.isEmpty, "\(file.stderr) \(piped.stderr)")
            var object = try Self.json(file.stdoutLines.first ?? "")
            #expect(object["container"] as? String == container && object["encoding"] as? String == encoding, "\(object)")
            #expect(object["stream"] as? Int == stream && object["streams"] as? Int == streams, "\(object)")
            #expect(object["sample_rate"] as? Int == 48000 && object["channels"] as? Int == channels, "\(object)")
            #expect(abs((object["duration"] as? Double ?? 0) - 2) < 0.1, "\(object)")
            var fromStdin = try Self.json(piped.stdoutLines.first ?? "")
            #expect(fromStdin["file"] as? String == "-")
            object["file"] = nil
            fromStdin["file"] = nil
            #expect(NSDictionary(dictionary: object).isEqual(to: fromStdin), "\(object) vs \(fromStdin)")
        }
        let human = try QixProcess.run(["info", "\(dir)/clip.mp4"])
        #expect(human.stdout.hasPrefix("\(dir)/clip.mp4: MP4 AAC_LC (stream 1 of 2), 48000 Hz, 1 ch, "), "\(human.stdout)")
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
