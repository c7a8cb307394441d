import Foundation
import Testing
import QixTestSupport
import QixScan

/// Coverage: monitored hours, gaps and their causes, periods, old databases and merges.
@Suite("Channel coverage")
struct ChannelCoverageTests {
    static func recording(_ channel: String?, _ start: String?, _ duration: Double?, declared: Double? = nil,
                          done: Bool = true) -> StoredRecording {
        let file = RecordingFile(stored: "\(channel ?? "x")_\(start ?? "-").flac", size: 1, modificationTime: 0, fingerprint: "f")
        return StoredRecording(id: 0, file: file, duration: done ? duration : nil, channel: channel,
                               wallclockStart: start.flatMap(WallClockTime.init(iso8601:)), isDone: done,
                               error: done ? nil : "broken", keyFingerprint: "k", declaredDuration: declared)
    }

    static func airing(_ channel: String) -> Airing {
        Airing(id: "0000000a", recording: "r", channel: channel, start: 1, end: 2, wallclockStart: nil, score: 9)
    }

    static func gaps(_ c: ChannelCoverage) -> [String] {
        c.gaps.map { "\($0.start.iso8601) \($0.end.iso8601) \($0.seconds) \($0.cause.rawValue)" }
    }

    @Test("abutting and overlapping recordings count once; a 20-minute hole is one gap; a silent channel is listed")
    func hoursAndGaps() throws {
        let recordings = [
            Self.recording("a", "2026-11-21T10:00:00Z", 1800), Self.recording("a", "2026-11-21T10:30:00Z", 1800),
            Self.recording("a", "2026-11-21T10:45:00Z", 600),   // a second recorder, inside the other's hour
            Self.recording("b", "2026-11-21T10:00:00Z", 600), Self.recording("b", "2026-11-21T10:30:00Z", 1800),
            Self.recording("c", "2026-11-21T10:00:00Z", 3600),
        ]
        let airings = [Self.airing("a"), Self.airing("a"), Self.airing("b")]
        let channels = CoverageBuilder.channels(recordings, airings: airings)
        #expect(channels.map(\.channel) == ["a", "b", "c"])
        #expect(channels.map(\.monitoredSeconds) == [3600, 2400, 3600])
        #expect(channels.map(\.recordings) == [3, 2, 1])
        #expect(channels[0].gaps.isEmpty && channels[2].gaps.isEmpty)
        #expect(Self.gaps(channels[1]) == ["2026-11-21T10:10:00Z 2026-11-21T10:30:00Z 1200.0 not recorded"])
        #expect(channels[1].start?.iso8601 == "2026-11-21T10:00:00Z" && channels[1].end?.iso8601 == "2026-11-21T11:00:00Z")
        #expect(channels.map(\.airings) == [2, 1, 0])
        #expect(channels.map(\.airingsPerHour) == [2, 1.5, 0])
    }

    @Test("a cut recording leaves a damaged gap, a failed one a failed gap; short gaps follow the minimum")
    func causes() throws {
        let recordings = [
            Self.recording("a", "2026-11-21T10:00:00Z", 1800, declared: 3600),   // cut at half
            Self.recording("a", "2026-11-21T11:00:00Z", nil, done: false),
            Self.recording("a", "2026-11-21T12:00:00Z", 3599.5),                 // half a second short of the next
            Self.recording("a", "2026-11-21T13:00:00Z", 1200, declared: 3600),   // the last, cut: its lost end is a gap
        ]
        let channel = try #require(CoverageBuilder.channels(recordings, airings: []).first)
        #expect(channel.failed == 1 && channel.recordings == 3)
        #expect(channel.monitoredSeconds == 1800 + 3599.5 + 1200)
        #expect(Self.gaps(channel) == ["2026-11-21T10:30:00Z 2026-11-21T12:00:00Z 5400.0 damaged",
                                       "2026-11-21T13:20:00Z 2026-11-21T14:00:00Z 2400.0 damaged"])
        #expect(channel.end?.iso8601 == "2026-11-21T14:00:00Z")
        let fine = try #require(CoverageBuilder.channels(recordings, airings: [], minimumGap: 0.1).first)
        #expect(fine.gaps.count == 3 && fine.gaps[1].seconds == 0.5 && fine.gaps[1].cause == .notRecorded)
        // A failed recording alone in a hole names it.
        let failedOnly = [Self.recording("b", "2026-11-21T10:00:00Z", 600), Self.recording("b", "2026-11-21T10:20:00Z", nil, done: false),
                          Self.recording("b", "2026-11-21T11:00:00Z", 600)]
        #expect(Self.gaps(CoverageBuilder.channels(failedOnly, airings: [])[0]) == ["2026-11-21T10:10:00Z 2026-11-21T11:00:00Z 3000.0 failed"])
    }

    @Test("a period clips the spans; its uncovered ends are gaps; unknown starts and channels are handled")
    func periods() throws {
        let recordings = [Self.recording("a", "2026-11-21T10:00:00Z", 3600), Self.recording("a", "2026-11-21T12:00:00Z", 3600),
                          Self.recording(nil, nil, 90), Self.recording("a", nil, 30)]
        let from = try #require(WallClockTime(iso8601: "2026-11-21T09:00:00Z"))
        let to = try #require(WallClockTime(iso8601: "2026-11-21T12:30:00Z"))
        let clipped = CoverageBuilder.channels(recordings, airings: [], from: from, to: to)
        #expect(clipped.map(\.channel) == ["a", nil], "the unknown channel is listed last")
        #expect(clipped[0].monitoredSeconds == 3600 + 1800, "recordings of unknown start count for nothing in a period")
        #expect(Self.gaps(clipped[0]) == ["2026-11-21T09:00:00Z 2026-11-21T10:00:00Z 3600.0 not recorded",
                                          "2026-11-21T11:00:00Z 2026-11-21T12:00:00Z 3600.0 not recorded"])
        #expect(clipped[1].monitoredSeconds == 0 && clipped[1].airingsPerHour == nil)
        let whole = CoverageBuilder.channels(recordings, airings: [])
        #expect(whole[0].monitoredSeconds == 7230 && whole[1].monitoredSeconds == 90 && whole[1].start == nil)
    }

    @Test("a version 1 database opens read-only and reports coverage; opened for writing it is upgraded with its rows")
    func versionOneDatabase() throws {
        let dir = try ScanFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/v1.sqlite"
        let schema = AiringsVersion1.tables + """
            INSERT INTO recordings VALUES (1, '/a/bbc_20261121_100000.flac', 10, 1.5, 'f', 1800, 'bbc', '2026-11-21T10:00:00Z', 'done', NULL, 'k', 'u');
            INSERT INTO recordings VALUES (2, '/a/bbc_20261121_105000.flac', 10, 1.5, 'f', 600, 'bbc', '2026-11-21T10:50:00Z', 'done', NULL, 'k', 'u');
            INSERT INTO detections VALUES (1, 1, 'cafef00d', 10, 20, 7);
            PRAGMA user_version = 1;
            """
        #expect(shell("sqlite3", path, schema) == 0)
        let old = try AiringsDatabase(path: path, create: false, readOnly: true)
        let airings = AiringsBuilder.airings(try old.detections())
        let coverage = CoverageBuilder.channels(try old.recordings(), airings: airings)
        #expect(coverage.count == 1 && coverage[0].monitoredSeconds == 2400 && coverage[0].airings == 1)
        #expect(Self.gaps(coverage[0]) == ["2026-11-21T10:30:00Z 2026-11-21T10:50:00Z 1200.0 not recorded"])

        let upgraded = try AiringsDatabase(path: path)
        #expect(try upgraded.recordings().map(\.file.path) == ["/a/bbc_20261121_100000.flac", "/a/bbc_20261121_105000.flac"])
        #expect(AiringsBuilder.airings(try upgraded.detections()) == airings)
        #expect(CoverageBuilder.channels(try upgraded.recordings(), airings: airings) == coverage)
        let ends = Process()
        ends.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ends.arguments = ["sqlite3", path, "PRAGMA user_version; SELECT wallclock_end FROM recordings ORDER BY id;"]
        let pipe = Pipe()
        ends.standardOutput = pipe
        try ends.run()
        ends.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text == "3\n2026-11-21T10:30:00Z\n2026-11-21T11:00:00Z\n")
    }

    @Test("scans store what a cut recording lost, and merges carry it, so shards merge to the unsharded coverage")
    func storedAndMerged() throws {
        let dir = try ScanFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ScanFixtures.write("duration 1800\ndeclared 3600\n", to: "\(dir)/rec/bbc_20261121_100000.flac")
        try ScanFixtures.write("duration 3600\n0000000b 5 15\n", to: "\(dir)/rec/bbc_20261121_110000.flac")
        try ScanFixtures.write("duration 3600\n", to: "\(dir)/rec/itv_20261121_100000.flac")
        try ScanFixtures.write("duration 3600\n", to: "\(dir)/rec/itv_20261121_120000.flac")
        let paths = RecordingCatalog(inputs: ["\(dir)/rec"]).paths
        let whole = try AiringsDatabase(path: "\(dir)/whole.sqlite")
        try ScanFixtures.scan(paths, into: whole)
        let cut = try #require(try whole.recordings().first)
        #expect(cut.declaredDuration == 3600 && cut.damage?.contains("truncated") == true)

        let merged = try AiringsDatabase(path: "\(dir)/merged.sqlite")
        for k in 1...3 {
            let shard = try AiringsDatabase(path: "\(dir)/shard\(k).sqlite")
            try ScanFixtures.scan(paths.filter(try ScanShard(index: k, count: 3).contains), into: shard)
            _ = try merged.merge(from: shard)
        }
        func strip(_ list: [StoredRecording]) -> [StoredRecording] { list.map { var r = $0; r.id = 0; return r } }
        #expect(try strip(merged.recordings()) == strip(whole.recordings()))
        let coverage = CoverageBuilder.channels(try merged.recordings(), airings: AiringsBuilder.airings(try merged.detections()))
        #expect(coverage == CoverageBuilder.channels(try whole.recordings(), airings: AiringsBuilder.airings(try whole.detections())))
        #expect(coverage.map { Self.gaps($0) } == [["2026-11-21T10:30:00Z 2026-11-21T11:00:00Z 1800.0 damaged"],
                                                   ["2026-11-21T11:00:00Z 2026-11-21T12:00:00Z 3600.0 not recorded"]])
    }
}
