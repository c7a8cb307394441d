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
        #expect(try ScanShard.fromEnvironment(["JOB_COMPLETION_INDEX": "2"], shardCount: 3) == ScanShard(index: 3, count: 3))
        #expect(throws: ScanError.self) { try ScanShard.fromEnvironment(["JOB_COMPLETION_INDEX": "2"], shardCount: nil) }
        #expect(try ScanShard.fromEnvironment([:], shardCount: nil) == nil)

        let paths = (0..<200).map { "/archive/ch\($0 % 7)_\($0).flac" }
        let shards = try (1...3).map { try ScanShard(index: $0, count: 3) }
        for path in paths { #expect(shards.filter { $0.contains(path) }.count == 1) }
        #expect(shards.allSatisfy { shard in paths.filter(shard.contains).count > 40 }, "roughly even")
    }

    /// What Slurm sets in each task of `--array=<spec>` (IDs in `tasks`).
    static func slurmEnvironment(task: Int, of tasks: [Int]) -> [String: String] {
        ["SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_MIN": "\(tasks.min()!)", "SLURM_ARRAY_TASK_MAX": "\(tasks.max()!)",
         "SLURM_ARRAY_TASK_COUNT": "\(tasks.count)", "SLURM_ARRAY_JOB_ID": "42"]
    }

    /// The recordings the tasks of one array scan, with `count` shards.
    static func scanned(by tasks: [Int], count: Int, paths: [String]) throws -> Set<String> {
        var union = Set<String>()
        for task in tasks {
            let shard = try #require(try ScanShard.fromEnvironment(slurmEnvironment(task: task, of: tasks), shardCount: count))
            let expected = try ScanShard(index: task, count: count)
            #expect(shard == expected, "task \(task) is shard \(task)/\(count) whatever the layout")
            let mine = Set(paths.filter(shard.contains))
            #expect(union.isDisjoint(with: mine), "task \(task) overlaps another task")
            union.formUnion(mine)
        }
        return union
    }

    @Test("Slurm arrays: stepped, sparse and re-submitted layouts scan exactly their shards, and together everything")
    func slurmLayouts() throws {
        let paths = (0..<300).map { "/archive/ch\($0 % 5)_2026112\($0 % 9)_\($0).flac" }
        func shardPaths(_ indexes: [Int], _ count: Int) throws -> Set<String> {
            Set(try indexes.flatMap { k in paths.filter(try ScanShard(index: k, count: count).contains) })
        }
        // --array=1-8:2 then --array=2-8:2, 8 shards.
        let odd = try Self.scanned(by: [1, 3, 5, 7], count: 8, paths: paths)
        let even = try Self.scanned(by: [2, 4, 6, 8], count: 8, paths: paths)
        #expect(try odd == shardPaths([1, 3, 5, 7], 8))
        #expect(try even == shardPaths([2, 4, 6, 8], 8))
        #expect(odd.isDisjoint(with: even) && odd.union(even) == Set(paths))
        // --array=2,5,9 then the rest, 10 shards.
        let sparse = try Self.scanned(by: [2, 5, 9], count: 10, paths: paths)
        let rest = try Self.scanned(by: [1, 3, 4, 6, 7, 8, 10], count: 10, paths: paths)
        #expect(try sparse == shardPaths([2, 5, 9], 10))
        #expect(sparse.isDisjoint(with: rest) && sparse.union(rest) == Set(paths))
        // --array=1-8 where tasks 3 and 7 failed, re-submitted as --array=3,7.
        let again = try Self.scanned(by: [3, 7], count: 8, paths: paths)
        #expect(try again == shardPaths([3, 7], 8))
        #expect(!again.isEmpty)
        #expect(try Self.scanned(by: [7], count: 8, paths: paths) == shardPaths([7], 8))
    }

    @Test("scheduler indexes outside the shard range, or without a shard count, are errors naming the variable")
    func schedulerIndexErrors() throws {
        func failure(_ environment: [String: String], _ count: Int?) -> String {
            do {
                _ = try ScanShard.fromEnvironment(environment, shardCount: count)
                return "no error"
            } catch { return "\(error)" }
        }
        // Task 8 of --shard-count 8 is shard 8; task 9 and task 0 are not shards (no wrap).
        #expect(try ScanShard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "8"], shardCount: 8) == ScanShard(index: 8, count: 8))
        for task in ["9", "0", "-1"] {
            let text = failure(Self.slurmEnvironment(task: Int(task)!, of: [Int(task)!]), 8)
            #expect(text.contains("SLURM_ARRAY_TASK_ID") && text.contains("1 to 8"), "\(task): \(text)")
        }
        #expect(failure(["SLURM_ARRAY_TASK_ID": "x"], 8).contains("not a whole number"))
        // Without a count the array's task count is not trusted: --array=3,7 says COUNT=2.
        let noCount = failure(Self.slurmEnvironment(task: 3, of: [3, 7]), nil)
        #expect(noCount.contains("shardCount") && noCount.contains("SLURM_ARRAY_TASK_ID"), "\(noCount)")
        #expect(failure(["JOB_COMPLETION_INDEX": "3"], 3).contains("0 to 2"))
        #expect(failure(["JOB_COMPLETION_INDEX": "-1"], 3).contains("JOB_COMPLETION_INDEX"))
        #expect(try ScanShard.fromEnvironment(["JOB_COMPLETION_INDEX": "0"], shardCount: 1) == .whole)
        #expect(failure(["JOB_COMPLETION_INDEX": "0"], 0).contains("at least 1"))
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
