import Foundation
import Testing
import QixTestSupport
import QixAudio
import QixScan
import QixWatermark

/// `qix report --coverage` on generated archives: what each channel's recordings prove
/// was monitored, in every output format.
@Suite("qix report --coverage", .serialized)
struct ReportCoverageTests {
    /// Writes 30 s recordings of 16 kHz mono speech named CHANNEL_20261121_HHMMSS, each with
    /// the marked spots given as (ID, seconds into the recording), 8 s long.
    static func writeArchive(_ recordings: [(name: String, spots: [(id: String, at: Int)])], into directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let rate = ScanArchive.rate, length = 30 * rate
        let key = try WatermarkKey(hex: ScanArchive.key)
        let clips = "\(QixProcess.repository)/corpus/clips"
        let music = try Resampler.resample(AudioFileReader.readAll(path: "\(clips)/a01_music_rock_sectoid_metal-madness.flac").mixedToMono(), to: rate)
        let speech = try Resampler.resample(AudioFileReader.readAll(path: "\(clips)/a05_speech_en-audiobook_librivox-austen.flac"), to: rate)
        for (index, recording) in recordings.enumerated() {
            var samples = (0..<length).map { 0.5 * speech.samples[($0 + index * 3 * rate) % speech.samples.count] }
            for spot in recording.spots {
                let marked = try WatermarkEmbedder(key: key, payload: WatermarkPayload(hex: spot.id)).embed(music)
                for i in 0..<8 * rate { samples[spot.at * rate + i] = marked.samples[2 * rate + i] }
            }
            try AudioFileWriter.write(AudioBuffer(samples: samples, channels: 1, sampleRate: rate), to: "\(directory)/\(recording.name)")
        }
    }

    static func report(_ db: String, _ options: [String]) throws -> String {
        let result = try QixProcess.run(["report", db, "--coverage"] + options)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test("3 channels, one without airings and one with a 20-minute gap: every channel's hours and gaps, exactly, in text, CSV and JSON")
    func threeChannels() throws {
        let directory = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.writeArchive([
            ("alpha_20261121_100000.flac", [("11111111", 5)]), ("alpha_20261121_100030.flac", []), ("alpha_20261121_100100.flac", []),
            ("beta_20261121_100000.flac", [("22222222", 10)]), ("beta_20261121_102030.flac", [("33333333", 10)]),
            ("gamma_20261121_100000.flac", []), ("gamma_20261121_100030.flac", []),
        ], into: "\(directory)/archive")
        let key = "\(directory)/campaign.key"
        try (ScanArchive.key + "\n").write(toFile: key, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        let db = "\(directory)/airings.sqlite"
        let scan = try QixProcess.run(["scan", "\(directory)/archive", "--db", db, "--key", key, "--jobs", "2", "--quiet"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let airings = try QixProcess.run(["report", db, "--json"]).stdoutLines
        #expect(airings.count == 3, "\(airings)")

        #expect(try Self.report(db, ["--json"]) == """
            {"channel": "alpha", "start": "2026-11-21T10:00:00Z", "end": "2026-11-21T10:01:30Z", "recordings": 3, "failed": 0, "monitored_seconds": 90, "monitored_hours": 0.025, "gap_seconds": 0, "gaps": [], "airings": 1, "airings_per_hour": 40}
            {"channel": "beta", "start": "2026-11-21T10:00:00Z", "end": "2026-11-21T10:21:00Z", "recordings": 2, "failed": 0, "monitored_seconds": 60, "monitored_hours": 0.016667, "gap_seconds": 1200, "gaps": [{"start": "2026-11-21T10:00:30Z", "end": "2026-11-21T10:20:30Z", "seconds": 1200, "cause": "not recorded"}], "airings": 2, "airings_per_hour": 120}
            {"channel": "gamma", "start": "2026-11-21T10:00:00Z", "end": "2026-11-21T10:01:00Z", "recordings": 2, "failed": 0, "monitored_seconds": 60, "monitored_hours": 0.016667, "gap_seconds": 0, "gaps": [], "airings": 0, "airings_per_hour": 0}

            """)
        #expect(try Self.report(db, ["--csv"]) == """
            channel,kind,start,end,seconds,hours,recordings,failed,airings,airings_per_hour,cause
            alpha,channel,2026-11-21T10:00:00Z,2026-11-21T10:01:30Z,90,0.025,3,0,1,40,
            beta,channel,2026-11-21T10:00:00Z,2026-11-21T10:21:00Z,60,0.016667,2,0,2,120,
            beta,gap,2026-11-21T10:00:30Z,2026-11-21T10:20:30Z,1200,0.333333,,,,,not recorded
            gamma,channel,2026-11-21T10:00:00Z,2026-11-21T10:01:00Z,60,0.016667,2,0,0,0,

            """)
        #expect(try Self.report(db, []) == """
            alpha  2026-11-21T10:00:00Z to 2026-11-21T10:01:30Z  monitored 0.025 h (90.0 s) in 3 recordings, no gaps, 1 airing (40.0 per hour)
            beta  2026-11-21T10:00:00Z to 2026-11-21T10:21:00Z  monitored 0.017 h (60.0 s) in 2 recordings, 1 gap 1200.0 s, 2 airings (120.0 per hour)
              gap  2026-11-21T10:00:30Z to 2026-11-21T10:20:30Z  1200.0 s  not recorded
            gamma  2026-11-21T10:00:00Z to 2026-11-21T10:01:00Z  monitored 0.017 h (60.0 s) in 2 recordings, no gaps, 0 airings (0.0 per hour)

            """)
        // The HTML timeline: a lane and a monitored band for every channel, the gap marked.
        let html = "\(directory)/airings.html"
        #expect(try QixProcess.run(["report", db, "--html", html]).status == 0)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        for channel in ["alpha", "beta", "gamma"] {
            #expect(page.contains(">\(channel)</text>"), "a lane for \(channel)")
            #expect(page.contains("<title>\(channel) monitored "), "a monitored band for \(channel)")
        }
        #expect(page.contains("<title>gamma monitored 0.02 h from 2026-11-21T10:00:00Z to 2026-11-21T10:01:00Z</title>"))
        #expect(page.components(separatedBy: "class=\"gap\"").count == 4, "one gap drawn in each view: whole period, week, day")
        #expect(page.contains("<title>beta gap from 2026-11-21T10:00:30Z to 2026-11-21T10:20:30Z, 1200 s, not recorded</title>"))
        #expect(page.contains("<tr data-channel=\"gamma\"><td>gamma</td><td>2026-11-21T10:00:00Z</td><td>2026-11-21T10:01:00Z</td><td>0.02</td><td>none</td><td>0</td><td>0</td></tr>"))

        // A period, 10:00:15 to 10:30: clipped spans, the airing before it left out, the uncovered end a gap.
        let window = try Self.report(db, ["--json", "--from", "2026-11-21T10:00:15Z", "--to", "2026-11-21T10:30:00Z"])
        #expect(window.split(separator: "\n").dropFirst().first == """
            {"channel": "beta", "start": "2026-11-21T10:00:15Z", "end": "2026-11-21T10:30:00Z", "recordings": 2, "failed": 0, "monitored_seconds": 45, "monitored_hours": 0.0125, "gap_seconds": 1740, "gaps": [{"start": "2026-11-21T10:00:30Z", "end": "2026-11-21T10:20:30Z", "seconds": 1200, "cause": "not recorded"}, {"start": "2026-11-21T10:21:00Z", "end": "2026-11-21T10:30:00Z", "seconds": 540, "cause": "not recorded"}], "airings": 1, "airings_per_hour": 80}
            """, "\(window)")
    }

    @Test("a WAV cut at half: the decoded span is stored, the lost span is a damaged gap; bad options are one-line errors")
    func cutRecording() throws {
        let directory = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.writeArchive([("delta_20261121_100000.wav", []), ("delta_20261121_100030.flac", [])], into: "\(directory)/archive")
        // Keep the header and half the samples: the header still declares 30 s.
        let wav = "\(directory)/archive/delta_20261121_100000.wav"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: wav))
        let dataChunk = try #require(bytes.range(of: Data("data".utf8)))
        try bytes.prefix(dataChunk.upperBound + 4 + 15 * ScanArchive.rate * 2).write(to: URL(fileURLWithPath: wav))
        let db = "\(directory)/airings.sqlite"
        let scan = try QixProcess.run(["scan", "\(directory)/archive", "--db", db, "--jobs", "1", "--quiet"])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stderr.contains("truncated input"), "\(scan.stderr)")
        #expect(try Self.report(db, ["--csv"]) == """
            channel,kind,start,end,seconds,hours,recordings,failed,airings,airings_per_hour,cause
            delta,channel,2026-11-21T10:00:00Z,2026-11-21T10:01:00Z,45,0.0125,2,0,0,0,
            delta,gap,2026-11-21T10:00:15Z,2026-11-21T10:00:30Z,15,0.004167,,,,,damaged

            """)
        let stored = try AiringsDatabase(path: db, create: false, readOnly: true).recordings()
        #expect(stored.map(\.declaredDuration) == [30, nil] && stored[0].duration == 15)

        for (options, flag) in [(["--by", "channel"], "--by"), (["--failures"], "--failures"), (["--min-gap", "-1"], "--min-gap")] {
            let bad = try QixProcess.run(["report", db, "--coverage"] + options)
            #expect(bad.status == 2 && bad.stderr.contains(flag), "\(options): \(bad.stderr)")
        }
    }

    @Test("a database written before coverage (schema 1) still reports, with coverage, merges, and is upgraded when written to")
    func versionOneDatabase() throws {
        let directory = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = "\(directory)/old.sqlite"
        let schema = AiringsVersion1.tables + """
            INSERT INTO scans VALUES (1, 'u', '2026-11-22T00:00:00Z', '2026-11-22T00:01:00Z', '0.1.0', 'k', 'h', NULL);
            INSERT INTO recordings VALUES (1, '/a/bbc_20261121_100000.flac', 10, 1.5, 'f', 3600, 'bbc', '2026-11-21T10:00:00Z', 'done', NULL, 'k', 'u');
            INSERT INTO recordings VALUES (2, '/a/bbc_20261121_113000.flac', 10, 1.5, 'f', 1800, 'bbc', '2026-11-21T11:30:00Z', 'done', NULL, 'k', 'u');
            INSERT INTO recordings VALUES (3, '/a/itv_20261121_100000.flac', 10, 1.5, 'f', 3600, 'itv', '2026-11-21T10:00:00Z', 'done', NULL, 'k', 'u');
            INSERT INTO detections VALUES (1, 1, 'cafef00d', 10, 20, 7);
            PRAGMA user_version = 1;
            """
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["sqlite3", old, schema]
        try sqlite.run()
        sqlite.waitUntilExit()
        #expect(sqlite.terminationStatus == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: old))
        let expected = """
            channel,kind,start,end,seconds,hours,recordings,failed,airings,airings_per_hour,cause
            bbc,channel,2026-11-21T10:00:00Z,2026-11-21T12:00:00Z,5400,1.5,2,0,1,0.667,
            bbc,gap,2026-11-21T11:00:00Z,2026-11-21T11:30:00Z,1800,0.5,,,,,not recorded
            itv,channel,2026-11-21T10:00:00Z,2026-11-21T11:00:00Z,3600,1,1,0,0,0,

            """
        #expect(try Self.report(old, ["--csv"]) == expected)
        #expect(try QixProcess.run(["report", old, "--json"]).stdoutLines.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: old)) == before, "reading leaves it as it was")
        let merged = "\(directory)/merged.sqlite"
        #expect(try QixProcess.run(["merge", merged, old, "--quiet"]).status == 0)
        #expect(try Self.report(merged, ["--csv"]) == expected)
        // Written to, it is upgraded in place and still reports the same.
        #expect(try QixProcess.run(["merge", old, merged, "--quiet"]).status == 0)
        #expect(try Self.report(old, ["--csv"]) == expected)
    }
}
