import Foundation
import Testing

/// `qix detect` run as a user runs it.
@Suite("qix detect", .serialized)
struct DetectCommandTests {
    static let clip = "\(QixProcess.repository)/corpus/clips/a02_music_orchestral_wesnoth_heroes-rite.flac"

    @Test("finds the ID with and without --thorough, and nothing with another key")
    func thoroughFlag() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = "\(dir)/marked.flac"
        let embed = try QixProcess.run(["embed", Self.clip, file, "--message", "5eed1234"])
        #expect(embed.status == 0, "\(embed.stderr)")
        // The summary a producer checks: the ID, the format and the SNR held at 24.6 dB
        // (the broadcast profile's budget).
        #expect(embed.stderrLines.contains { $0.hasPrefix("qix: marked \(file) with 5eed1234 (format 3): ") &&
                                             $0.hasSuffix("watermark 24.6 dB under the audio") }, "\(embed.stderr)")
        // The venue profile, 4.4 dB louder, is read by the same detector.
        let venueFile = "\(dir)/venue.flac"
        let venue = try QixProcess.run(["embed", Self.clip, venueFile, "--message", "5eed1234", "--profile", "venue"])
        #expect(venue.stderrLines.contains { $0.hasSuffix("watermark 20.2 dB under the audio") }, "\(venue.stderr)")
        #expect(try QixProcess.run(["detect", venueFile, "--json"]).stdout.contains(#""message": "5eed1234""#))
        for flags in [[], ["--thorough"]] {
            let run = try QixProcess.run(["detect", file, "--json"] + flags)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains(#""message": "5eed1234""#), "\(flags): \(run.stdout)")
        }
        let keyFile = "\(dir)/other.key"
        try "00112233445566778899aabbccddeeff\n".write(toFile: keyFile, atomically: true, encoding: .utf8)
        let other = try QixProcess.run(["detect", file, "--json", "--thorough", "--key", keyFile])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.stdout.contains(#""detections": []"#), "\(other.stdout)")
        #expect(try QixProcess.run(["detect", "--help"]).stdout.contains("--thorough"))
    }

    /// A faint mark (strength 0.16) scores 6.7 for its expected ID: under the hourly
    /// threshold of 7, over a 15 s session's 6.3.
    @Test("--session hears an expected ID that the hourly threshold does not")
    func sessionFlag() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = "\(dir)/faint.flac"
        let embed = try QixProcess.run(["embed", Self.clip, file, "--message", "5eed1234", "--strength", "0.16"])
        #expect(embed.status == 0, "\(embed.stderr)")
        let hourly = try QixProcess.run(["detect", file, "--json", "--expect", "5eed1234,0badcafe"])
        #expect(hourly.status == 0, "\(hourly.stderr)")
        #expect(hourly.stdout.contains(#""detections": []"#), "\(hourly.stdout)")
        let session = try QixProcess.run(["detect", file, "--json", "--expect", "5eed1234,0badcafe", "--session"])
        #expect(session.status == 0, "\(session.stderr)")
        #expect(session.stdout.contains(#""message": "5eed1234""#), "\(session.stdout)")
        #expect(!session.stdout.contains("0badcafe"), "\(session.stdout)")
        #expect(try QixProcess.run(["detect", "--help"]).stdout.contains("--session"))
        let alone = try QixProcess.run(["detect", file, "--session"])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.stderrLines.contains("qix: warning: --session lowers only the expected IDs' threshold, and no --expect was given"),
                "\(alone.stderr)")
    }

    @Test("a repeated --key tries each key and names the one that matched")
    func repeatedKeys() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = "\(dir)/first.key", second = "\(dir)/second.key", file = "\(dir)/marked.flac"
        for (path, hex) in [(first, "00112233445566778899aabbccddeeff"), (second, "ffeeddccbbaa99887766554433221100")] {
            try "\(hex)\n".write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o600)
        }
        let embed = try QixProcess.run(["embed", Self.clip, file, "--message", "5eed1234", "--key", second])
        #expect(embed.status == 0, "\(embed.stderr)")
        let json = try QixProcess.run(["detect", file, "--json", "--key", first, "--key", second])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains(#""message": "5eed1234""#) && json.stdout.contains(#""key": "\#(second)""#), "\(json.stdout)")
        #expect(!json.stdout.contains(first), "\(json.stdout)")
        let text = try QixProcess.run(["detect", file, "--key", first, "--key", second])
        #expect(text.stdoutLines.count == 1 && text.stdout.contains("5eed1234") && text.stdout.contains("key \(second))"), "\(text.stdout)")
        // One key, as before: no key named in text.
        let one = try QixProcess.run(["detect", file, "--key", second])
        #expect(one.stdout.contains("5eed1234") && !one.stdout.contains("key "), "\(one.stdout)")
    }
}
