import Foundation
import Testing
import QixScan

/// Name patterns, shards, the input walk and wall-clock text.
@Suite("Scan inputs")
struct ScanInputsTests {
    @Test("the standard pattern reads channel and UTC start from archive names")
    func standardPattern() throws {
        let match = try #require(RecordingNamePattern.standard.match(fileName: "BBC_One_20261121_183005"))
        #expect(match.channel == "BBC_One")
        #expect(match.start?.iso8601 == "2026-11-21T18:30:05Z")
        #expect(RecordingNamePattern.standard.match(fileName: "holiday-video") == nil)
        #expect(RecordingNamePattern.standard.match(fileName: "ch_20261321_000000") == nil, "month 13")
        let custom = try RecordingNamePattern("{YYYY}-{MM}-{DD}_{channel}-part*")
        let parts = try #require(custom.match(fileName: "2026-01-02_radio1-part3"))
        #expect(parts.channel == "radio1" && parts.start?.iso8601 == "2026-01-02T00:00:00Z")
        #expect(throws: ScanError.self) { try RecordingNamePattern("{year}") }
        #expect(throws: ScanError.self) { try RecordingNamePattern("plain") }
    }

    @Test("shards: K/N parsing, scheduler variables, and a partition of the inputs")
    func shards() throws {
        #expect(try ScanShard(parsing: "2/3") == ScanShard(index: 2, count: 3))
        for bad in ["3/2", "0/2", "1/0", "a/b", "2"] {
            #expect(throws: ScanError.self, "\(bad)") { try ScanShard(parsing: bad) }
        }
        #expect(try ScanShard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"], shardCount: nil)
                == ScanShard(index: 1, count: 4))
        #expect(try ScanShard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"], shardCount: nil)
                == ScanShard(index: 4, count: 4))
        #expect(try ScanShard.fromEnvironment(["JOB_COMPLETION_INDEX": "2"], shardCount: 3) == ScanShard(index: 3, count: 3))
        #expect(throws: ScanError.self) { try ScanShard.fromEnvironment(["JOB_COMPLETION_INDEX": "2"], shardCount: nil) }
        #expect(try ScanShard.fromEnvironment([:], shardCount: nil) == nil)

        let paths = (0..<200).map { "/archive/ch\($0 % 7)_\($0).flac" }
        let shards = try (1...3).map { try ScanShard(index: $0, count: 3) }
        for path in paths { #expect(shards.filter { $0.contains(path) }.count == 1) }
        #expect(shards.allSatisfy { shard in paths.filter(shard.contains).count > 40 }, "roughly even")
    }

    @Test("directories are walked in name order, manifests expanded, hidden files and non-audio skipped")
    func catalog() throws {
        let dir = try ScanFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["b/2.flac", "b/1.wav", "a.mp3", ".hidden/x.flac", "notes.md", "c/.partial.flac"] {
            try ScanFixtures.write("x", to: "\(dir)/tree/\(name)")
        }
        try ScanFixtures.write("# archive\n\(dir)/extra.ogg\nrelative.flac\n\n", to: "\(dir)/list.txt")
        let catalog = RecordingCatalog(inputs: ["\(dir)/tree", "\(dir)/list.txt", "\(dir)/tree/a.mp3"])
        #expect(catalog.paths == ["\(dir)/tree/a.mp3", "\(dir)/tree/b/1.wav", "\(dir)/tree/b/2.flac",
                                  "\(dir)/extra.ogg", "\(dir)/relative.flac"])
    }

    @Test("wall-clock text round-trips and reads offsets")
    func wallClock() throws {
        let t = try #require(WallClockTime(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59.5))
        #expect(t.iso8601 == "2024-02-29T23:59:59.500Z")
        #expect(WallClockTime(iso8601: t.iso8601) == t)
        #expect(WallClockTime(iso8601: "2026-11-21T19:30:00+01:00")?.iso8601 == "2026-11-21T18:30:00Z")
        #expect(WallClockTime(iso8601: "1969-12-31T23:59:59Z")?.secondsSinceEpoch == -1)
        #expect(WallClockTime(iso8601: "2023-02-29") == nil)
        #expect(WallClockTime(iso8601: "yesterday") == nil)
    }

    @Test("wall-clock forms Foundation's parser is wrapped for: bare dates, a space for the T, no zone; rolled-over fields and trailing text refused")
    func wallClockForms() throws {
        #expect(WallClockTime(iso8601: "2026-11-21")?.iso8601 == "2026-11-21T00:00:00Z")
        #expect(WallClockTime(iso8601: "2026-11-21 18:30:00Z")?.iso8601 == "2026-11-21T18:30:00Z")
        #expect(WallClockTime(iso8601: "2026-11-21T18:30:00")?.iso8601 == "2026-11-21T18:30:00Z")
        #expect(WallClockTime(iso8601: "2026-11-21T18:30:00.25-05:30")?.iso8601 == "2026-11-22T00:00:00.250Z")
        for text in ["2026-02-30T10:00:00Z", "2026-11-21T24:00:00Z", "2026-11-21T18:60:00Z", "2026-13-01",
                     "2026-11-21T18:30:00Zjunk", "2026-11-21T18:30Z", ""] {
            #expect(WallClockTime(iso8601: text) == nil, "\(text)")
        }
        // Milliseconds rounded, a carry into the next second written as whole.
        #expect(WallClockTime(secondsSinceEpoch: 59.9996).iso8601 == "1970-01-01T00:01:00Z")
        #expect(WallClockTime(secondsSinceEpoch: -0.25).iso8601 == "1969-12-31T23:59:59.750Z")
    }
}
