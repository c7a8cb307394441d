import Foundation
import Testing
import QixAudio
import QixWatermark

/// `qix listen` fed by real tools (sox) through a shell pipe, as users run it.
@Suite("qix listen", .serialized)
struct ListenCommandTests {
    static let clip = "\(QixProcess.repository)/corpus/clips/a02_music_orchestral_wesnoth_heroes-rite.flac"

    /// Runs `bash -c script` and returns its stdout, stderr and status.
    static func shell(_ script: String) throws -> QixProcess.Result {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script + " >\(dir)/out 2>\(dir)/err"]
        try process.run()
        process.waitUntilExit()
        return QixProcess.Result(status: process.terminationStatus,
                                 stdout: try String(contentsOfFile: "\(dir)/out", encoding: .utf8),
                                 stderr: try String(contentsOfFile: "\(dir)/err", encoding: .utf8))
    }

    static func marked() throws -> (dir: String, file: String) {
        let dir = try QixProcess.temporaryDirectory()
        let file = "\(dir)/marked.flac"
        let embed = try QixProcess.run(["embed", clip, file, "--message", "5eed1234"])
        #expect(embed.status == 0, "\(embed.stderr)")
        return (dir, file)
    }

    @Test("sox -> qix listen at 48 kHz s16le and at 16 kHz f32le prints the ID as JSON lines", arguments: [
        ("-e signed -b 16 -r 48000", ["--rate", "48000"]),
        ("-e float -b 32 -r 16000", ["--rate", "16000", "--format", "f32le"]),
    ])
    func soxPipe(_ soxFormat: String, _ options: [String]) throws {
        let (dir, file) = try Self.marked()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let qix = QixProcess.executable.path
        let result = try Self.shell("sox \(file) -t raw \(soxFormat) -c 1 - | \(qix) listen --json \(options.joined(separator: " "))")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdoutLines
        #expect(lines.count == 1, "\(lines)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
        #expect(object["message"] as? String == "5eed1234")
        let end = try #require(object["end"] as? Double), emitted = try #require(object["emitted_at"] as? Double)
        #expect(emitted - end <= 1.0)
        #expect(emitted <= 6, "decided within the first seconds of a 15 s spot")
        #expect((object["start"] as? Double ?? 99) < 1)
    }

    @Test("--until-first exits after the first ID; --max-seconds on unmarked audio exits 3; junk and cut streams do not crash")
    func exitsAndJunk() throws {
        let (dir, file) = try Self.marked()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let qix = QixProcess.executable.path
        let first = try Self.shell("sox \(file) -t raw -e signed -b 16 -r 48000 -c 1 - | \(qix) listen --until-first")
        #expect(first.status == 0)
        #expect(first.stdoutLines.count == 1 && first.stdout.hasPrefix("5eed1234"))

        let quiet = try QixProcess.run(["listen", "--max-seconds", "2"], stdin: Data(count: 48_000 * 2 * 5))
        #expect(quiet.status == 3)
        #expect(quiet.stdout.isEmpty)

        var random = SystemRandomNumberGenerator()
        let junk = Data((0..<(48_000 * 2 * 12 + 1)).map { _ in UInt8.random(in: 0...255, using: &random) })
        let noise = try QixProcess.run(["listen", "--json"], stdin: junk)
        #expect(noise.status == 0)
        #expect(noise.stdout.isEmpty, "random bytes never yield an ID")
        #expect(noise.stderr.contains("dropped 1 bytes"))

        // Every bad flag value is bad usage, exit 2, named in the one error line.
        for (flag, value) in [("--format", "u8"), ("--rate", "5"), ("--rate", "4000"), ("--channels", "0"),
                              ("--max-seconds", "0"), ("--expect", "5eed123")] {
            let bad = try QixProcess.run(["listen", flag, value], stdin: Data())
            #expect(bad.status == 2, "\(flag) \(value): \(bad.stderr)")
            #expect(bad.stderrLines.count == 1 && bad.stderr.hasPrefix("qix: error: bad usage (\(flag)): "), "\(bad.stderr)")
        }
    }

    @Test("--stats reports the searches and keyed checks of the listen and their false-ID bound")
    func stats() throws {
        // 12 s of random 48 kHz samples: one search per second once a frame is held.
        var random = SystemRandomNumberGenerator()
        let noise = Data((0..<(48_000 * 2 * 12)).map { _ in UInt8.random(in: 0...255, using: &random) })
        let result = try QixProcess.run(["listen", "--stats"], stdin: noise)
        #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stderr)")
        let line = try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("qix listen: ") })
        let words = line.split(separator: " ")
        let searches = try #require(words.firstIndex(of: "searches,").flatMap { Int(words[$0 - 1]) })
        let checks = try #require(words.firstIndex(of: "keyed").flatMap { Int(words[$0 - 1]) })
        let distinct = try #require(words.firstIndex(of: "distinct").flatMap { Int(words[$0 - 1]) })
        #expect(distinct > 0 && distinct <= checks, "\(line)")
        #expect(line.hasPrefix("qix listen: 12.0 s of audio"), "\(line)")
        #expect((8...10).contains(searches), "\(line)")
        #expect(checks > 0 && line.contains("false IDs expected"), "\(line)")
        #expect(try QixProcess.run(["listen"], stdin: noise).stderr.contains("keyed checks") == false)
    }

    @Test("--expect listens for the named IDs too; a malformed ID is refused before reading")
    func expectedIDs() throws {
        let (dir, file) = try Self.marked()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let qix = QixProcess.executable.path
        let heard = try Self.shell("sox \(file) -t raw -e signed -b 16 -r 48000 -c 1 - | \(qix) listen --until-first --expect 0badcafe,5eed1234")
        #expect(heard.status == 0, "\(heard.stderr)")
        #expect(heard.stdoutLines.count == 1 && heard.stdout.hasPrefix("5eed1234"), "\(heard.stdout)")
        let bad = try QixProcess.run(["listen", "--expect", "5eed123"], stdin: Data())
        #expect(bad.status == 2 && bad.stderr.contains("(--expect)"), "\(bad.stderr)")
    }

    @Test("--session: a 3 s capture, under one frame, is heard when it ends; without --expect it warns")
    func session() throws {
        let (dir, file) = try Self.marked()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let qix = QixProcess.executable.path
        let capture = "sox \(file) -t raw -e signed -b 16 -r 48000 -c 1 - trim 4 3"
        let heard = try Self.shell("\(capture) | \(qix) listen --session --max-seconds 3 --expect 0badcafe,5eed1234 --json")
        #expect(heard.status == 0, "\(heard.stderr)")
        #expect(heard.stdoutLines.count == 1 && heard.stdout.contains("\"message\": \"5eed1234\""), "\(heard.stdout)")
        let blind = try Self.shell("\(capture) | \(qix) listen --session")
        #expect(blind.status == 0 && blind.stderr.contains("no --expect was given"), "\(blind.stderr)")
    }
}
