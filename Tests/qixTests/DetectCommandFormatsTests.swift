import Foundation
import Testing
import QixTestSupport

/// Broadcast archives as they are: a watermark embedded into a corpus clip before ffmpeg
/// encodes it to AAC, MPEG-TS, MP4 with video or AC-3 is found by `qix detect` with the
/// right ID, and reading the same bytes from stdin, or ffmpeg's pipe output, gives the
/// same result as the file.
@Suite("qix detect: broadcast formats and pipes", .serialized)
struct DetectCommandFormatsTests {
    static let clip = "\(QixProcess.repository)/corpus/clips/a01_music_rock_sectoid_metal-madness.flac"
    static let id = "0a1b2c3d"

    /// The JSON line's duration and detections, without the file name.
    static func result(_ line: String?) throws -> String {
        let object = try #require(JSONSerialization.jsonObject(with: Data((line ?? "").utf8)) as? [String: Any])
        let detections = try #require(object["detections"] as? [[String: Any]])
        let found = detections.map { "\($0["message"] ?? "")@\($0["start"] ?? "")-\($0["end"] ?? "")/\($0["score"] ?? "")" }
        return "\(object["duration"] ?? "") \(found.joined(separator: ","))"
    }

    /// Runs `command` under bash with pipefail; output is small, so pipes cannot fill up.
    static func shell(_ command: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-o", "pipefail", "-c", command]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// The campaign key file in `dir` (a key of its own: the public test key warns on stderr).
    static func key(_ dir: String) throws -> String {
        let path = "\(dir)/campaign.key"
        if !FileManager.default.fileExists(atPath: path) {
            try "8c1f0e2d3b4a59687766554433221100\n".write(toFile: path, atomically: true, encoding: .utf8)
            // Owner-only, as qix keygen writes keys (qix warns about keys others can read).
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        }
        return path
    }

    /// A 10 s excerpt of a corpus clip at `rate`, marked with `id`.
    static func markedHost(_ dir: String, rate: Int) throws -> String {
        try FFmpegTool.run(["-i", clip, "-t", "10", "-ar", String(rate), "\(dir)/host\(rate).wav"])
        let marked = "\(dir)/marked\(rate).wav"
        let embed = try QixProcess.run(["embed", "\(dir)/host\(rate).wav", marked, "--message", id, "--key", try key(dir)])
        #expect(embed.status == 0, "\(embed.stderr)")
        return marked
    }

    @Test("M4A, ADTS, MPEG-TS with AAC and MP2, MP4 with video, AC-3: the ID from the file and from stdin")
    func encodedFiles() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cd = try Self.markedHost(dir, rate: 44100), broadcast = try Self.markedHost(dir, rate: 48000)
        let files: [(String, String, [String])] = [
            ("lc64.m4a", cd, ["-c:a", "aac", "-b:a", "64k"]),
            ("adts.aac", cd, ["-c:a", "aac", "-b:a", "128k"]),
            ("aac.ts", broadcast, ["-c:a", "aac", "-b:a", "128k"]),
            ("mp2.ts", broadcast, ["-c:a", "mp2", "-b:a", "192k"]),
            ("spot.ac3", broadcast, ["-c:a", "ac3", "-b:a", "192k"]),
        ]
        for (name, source, options) in files { try FFmpegTool.encode(source, to: "\(dir)/\(name)", options) }
        try FFmpegTool.run(["-f", "lavfi", "-i", "testsrc=s=96x64:r=10:d=10", "-i", broadcast, "-map", "0:v", "-map", "1:a",
                            "-c:v", "mpeg4", "-c:a", "aac", "-b:a", "128k", "\(dir)/video.mp4"])
        let paths = files.map { "\(dir)/\($0.0)" } + ["\(dir)/video.mp4"]
        let run = try QixProcess.run(["detect", "--key", try Self.key(dir), "--json"] + paths)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.stdoutLines.count == paths.count)
        for (path, line) in zip(paths, run.stdoutLines) {
            #expect(line.contains(#""message": "\#(Self.id)""#), "\(path): \(line)")
            let piped = try QixProcess.run(["detect", "--key", try Self.key(dir), "--json", "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(piped.status == 0 && piped.stderr.isEmpty, "\(path) on stdin: \(piped.stderr)")
            #expect(try Self.result(piped.stdoutLines.first) == Self.result(line), "\(path) on stdin")
        }
    }

    @Test("ffmpeg -f wav -, -f flac -, -f adts - into qix detect -: the ID, as from the files")
    func ffmpegPipes() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let marked = try Self.markedHost(dir, rate: 44100)
        try FFmpegTool.encode(marked, to: "\(dir)/marked.aac", ["-c:a", "aac", "-b:a", "128k"])
        let files = try QixProcess.run(["detect", "--key", try Self.key(dir), "--json", marked, "\(dir)/marked.aac"])
        #expect(files.status == 0 && files.stdoutLines.count == 2, "\(files.stderr)")
        let expected = [("wav", files.stdoutLines.first), ("flac", files.stdoutLines.first), ("adts", files.stdoutLines.last)]
        for (format, fileLine) in expected {
            #expect(fileLine?.contains(#""message": "\#(Self.id)""#) == true, "\(format): \(fileLine ?? "")")
            let stream = "\(dir)/stream.\(format)"
            var options = ["-i", marked, "-f", format]
            if format == "adts" { options += ["-c:a", "aac", "-b:a", "128k"] }
            try FFmpegTool.run(options + ["pipe:1"], stdout: stream)
            let piped = try QixProcess.run(["detect", "--key", try Self.key(dir), "--json", "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: stream)))
            #expect(piped.status == 0 && piped.stderr.isEmpty, "-f \(format) -: \(piped.stderr)")
            #expect(try Self.result(piped.stdoutLines.first) == Self.result(fileLine), "-f \(format) -")
        }
        // And through a real pipe, as users type it.
        let shell = try Self.shell("ffmpeg -nostdin -v error -i '\(marked)' -f wav - | '\(QixProcess.executable.path)' detect --key '\(try Self.key(dir))' --json -")
        #expect(shell.status == 0, "\(shell.stderr)")
        #expect(try Self.result(shell.stdout.split(separator: "\n").first.map(String.init)) == Self.result(files.stdoutLines.first))
    }

    @Test("WAV, FLAC, MP3 and AAC cut at 50 %: decoded up to the cut, the ID still found, one warning naming the loss")
    func cutRecordings() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let marked = try Self.markedHost(dir, rate: 44100)
        try FFmpegTool.encode(marked, to: "\(dir)/whole.mp3", ["-c:a", "libmp3lame", "-b:a", "192k"])
        try FFmpegTool.encode(marked, to: "\(dir)/whole.aac", ["-c:a", "aac", "-b:a", "128k"])
        try FFmpegTool.encode(marked, to: "\(dir)/whole.flac", ["-c:a", "flac"])
        for (name, phrase) in [("wav", "to 10.000 s is missing"), ("flac", "to 10.000 s is missing"), ("mp3", "s is missing"),
                               ("aac", "ends in the middle of a frame")] {
            let whole = name == "wav" ? marked : "\(dir)/whole.\(name)"
            let cut = "\(dir)/cut.\(name)"
            try FFmpegTool.cut(whole, to: cut)
            let run = try QixProcess.run(["detect", "--key", try Self.key(dir), "--json", cut])
            #expect(run.status == 0, "\(cut): \(run.stderr)")
            #expect(run.stdoutLines.first?.contains(#""message": "\#(Self.id)""#) == true, "\(cut): \(run.stdout)")
            #expect(run.stderrLines.count == 1, "\(cut): \(run.stderr)")
            #expect(run.stderrLines.first?.hasPrefix("qix: warning: \(cut): truncated input: ") == true, "\(run.stderr)")
            #expect(run.stderr.contains(phrase), "\(cut): \(run.stderr)")
        }
    }
}
