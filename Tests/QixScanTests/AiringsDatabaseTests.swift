import Foundation
import Testing
import QixScan

/// The store: re-runs, changed files, failures, wrong files, newer schemas, shard merges.
@Suite("Airings database")
struct AiringsDatabaseTests {
    @Test("a re-run skips unchanged recordings; a touched file alone is re-scanned; rows never duplicate")
    func rerun() throws {
        let dir = try ScanFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for i in 1...4 { try ScanFixtures.write("duration 60\nabcd000\(i) 10 20\n", to: "\(dir)/ch1_2026110\(i)_100000.flac") }
        let database = try AiringsDatabase(path: "\(dir)/airings.sqlite")
        let paths = RecordingCatalog(inputs: [dir]).paths
        #expect(paths.count == 4)
        let first = try ScanFixtures.scan(paths, into: database)
        #expect(first.scanned == 4 && first.skipped == 0)
        let rows = try ScanFixtures.rows(database)
        #expect(rows.count == 4)

        let again = try ScanFixtures.scan(paths, into: database)
        #expect(again.scanned == 0 && again.skipped == 4)
        #expect(try ScanFixtures.rows(database) == rows)

        let touched = "\(dir)/ch1_20261102_100000.flac"
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 100)], ofItemAtPath: touched)
        let third = try ScanFixtures.scan(paths, into: database)
        #expect(third.scanned == 1 && third.skipped == 3)
        #expect(try ScanFixtures.rows(database) == rows)
        #expect(try database.recordings().count == 4)
    }

    @Test("failed recordings are stored with their error, the rest go on, and a re-run retries them")
    func failures() throws {
        let dir = try ScanFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ScanFixtures.write("duration 5\n", to: "\(dir)/a.flac")
        try ScanFixtures.write("fail\n", to: "\(dir)/b.flac")
        let database = try AiringsDatabase(path: "\(dir)/db.sqlite")
        let scanner = RecordingScanner(database: database, keyFingerprint: "k", jobs: 1, analyze: ScanFixtures.textAnalyzer)
        let (progress, failures) = try scanner.scan(["\(dir)/a.flac", "\(dir)/b.flac", "\(dir)/missing.flac"],
                                                    run: ScanFixtures.run(), report: { _, _ in })
        #expect(progress.scanned == 1 && progress.failed == 2)
        #expect(failures.map(\.subject).sorted() == ["\(dir)/b.flac", "\(dir)/missing.flac"])
        let stored = try database.recordings()
        #expect(stored.filter { !$0.isDone }.count == 2)
        #expect(stored.first { $0.file.path.hasSuffix("b.flac") }?.error?.contains("not an audio file") == true)
        try ScanFixtures.write("duration 5\n", to: "\(dir)/b.flac")
        let retry = try ScanFixtures.scan(["\(dir)/a.flac", "\(dir)/b.flac"], into: database)
        #expect(retry.scanned == 1 && retry.skipped == 1)
    }

    @Test("a non-SQLite file, another program's database and a newer schema are refused untouched")
    func refusals() throws {
        let dir = try ScanFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ScanFixtures.write("just text, not a database\n", to: "\(dir)/text.sqlite")
        let before = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/text.sqlite"))
        let notSQLite = #expect(throws: ScanError.self) { try AiringsDatabase(path: "\(dir)/text.sqlite") }
        #expect(notSQLite?.reason == "not an SQLite database")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/text.sqlite")) == before)

        let newer = "\(dir)/newer.sqlite"
        _ = try AiringsDatabase(path: newer)
        #expect(shell("sqlite3", newer, "PRAGMA user_version = 99;") == 0)
        let newerError = #expect(throws: ScanError.self) { try AiringsDatabase(path: newer) }
        #expect(newerError?.reason.contains("newer") == true)

        let other = "\(dir)/other.sqlite"
        #expect(shell("sqlite3", other, "CREATE TABLE t (x);") == 0)
        let otherBefore = try Data(contentsOf: URL(fileURLWithPath: other))
        #expect(throws: ScanError.self) { try AiringsDatabase(path: other) }
        // Not even switched to WAL (header bytes 18-19), and no journal files left beside it.
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == otherBefore)
        #expect(!FileManager.default.fileExists(atPath: other + "-wal"))
        let newerBefore = try Data(contentsOf: URL(fileURLWithPath: newer))
        #expect(throws: ScanError.self) { try AiringsDatabase(path: newer) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: newer)) == newerBefore)
        #expect(throws: ScanError.self) { try AiringsDatabase(path: "\(dir)/absent.sqlite", readOnly: true) }
    }

    @Test("two shards merged give exactly the rows of one unsharded scan, and merging again changes nothing")
    func shardsAndMerge() throws {
        let dir = try ScanFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for ch in ["bbc", "itv"] {
            for h in 10...15 {
                try ScanFixtures.write("duration 3600\n0000\(h)0ab 100 130\n", to: "\(dir)/rec/\(ch)_20261121_\(h)0000.flac")
            }
        }
        let paths = RecordingCatalog(inputs: ["\(dir)/rec"]).paths
        let whole = try AiringsDatabase(path: "\(dir)/whole.sqlite")
        try ScanFixtures.scan(paths, into: whole)

        let shards = try (1...2).map { k -> AiringsDatabase in
            let shard = try ScanShard(index: k, count: 2)
            let db = try AiringsDatabase(path: "\(dir)/shard\(k).sqlite")
            try ScanFixtures.scan(paths.filter(shard.contains), into: db)
            return db
        }
        #expect(try shards.map { try $0.recordings().count }.reduce(0, +) == paths.count, "shards partition the inputs")
        let merged = try AiringsDatabase(path: "\(dir)/merged.sqlite")
        for shard in shards { _ = try merged.merge(from: shard) }
        #expect(try ScanFixtures.rows(merged) == ScanFixtures.rows(whole))
        let again = try merged.merge(from: shards[0])
        #expect(again.recordingsAdded == 0 && again.runsAdded == 0)
        #expect(try ScanFixtures.rows(merged) == ScanFixtures.rows(whole))
    }
}

/// Runs a command and returns its exit status.
func shell(_ arguments: String...) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
}
