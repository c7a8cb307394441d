import Foundation
import Testing
import QixScan
import QixTestSupport

/// `qix scan`, `qix report` and `qix merge` end to end on a generated archive.
@Suite("qix scan", .serialized)
struct ScanCommandTests {
    static func airings(_ db: String) throws -> [[String: Any]] {
        let result = try QixProcess.run(["report", db, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try result.stdoutLines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// The report's JSON lines as text: what must stay identical between runs.
    static func reportText(_ db: String) throws -> String {
        let result = try QixProcess.run(["report", db, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    static func scan(_ archive: ScanArchive, db: String, _ extra: [String] = []) throws -> QixProcess.Result {
        try QixProcess.run(["scan", archive.recordings, "--db", db, "--key", archive.keyFile, "--jobs", "2"] + extra)
    }

    @Test("every inserted spot is reported once at its wall-clock time; re-runs, touches, shards and merges keep the rows")
    func archiveScan() throws {
        let archive = try ScanArchive.make()
        defer { try? FileManager.default.removeItem(atPath: archive.directory) }
        let db = "\(archive.directory)/airings.sqlite"

        let first = try Self.scan(archive, db: db)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("scanned 6, skipped 0 unchanged, 0 failed of 6 recordings"), "\(first.stderr)")
        let rows = try Self.airings(db)
        let text = try Self.reportText(db)
        #expect(rows.count == ScanArchive.spots.count, "\(rows)")
        let ten = try #require(WallClockTime(iso8601: "2026-11-21T10:00:00Z"))
        for spot in ScanArchive.spots {
            let found = rows.filter { $0["id"] as? String == spot.id }
            #expect(found.count == 1, "\(spot.id) reported \(found.count) times")
            guard let row = found.first else { continue }
            #expect(row["channel"] as? String == spot.channel)
            let start = try #require(WallClockTime(iso8601: row["wallclock_start"] as? String ?? ""))
            #expect(abs(start.secondsSinceEpoch - ten.secondsSinceEpoch - spot.secondsAfterTen) <= 1.0, "\(spot.id) at \(start)")
        }

        // Re-running is a no-op.
        let again = try Self.scan(archive, db: db)
        #expect(again.stderr.contains("scanned 0, skipped 6 unchanged"), "\(again.stderr)")
        #expect(try Self.reportText(db) == text)

        // Touching one file re-scans that file and the next on its channel, which is read on
        // from its end.
        let touched = "\(archive.recordings)/beta_20261121_100030.flac"
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: touched)
        let third = try Self.scan(archive, db: db)
        #expect(third.stderr.contains("scanned 2, skipped 4 unchanged"), "\(third.stderr)")
        #expect(try Self.reportText(db) == text)

        // Two shards merged equal one unsharded scan.
        let shardDBs = try (1...2).map { k -> String in
            let path = "\(archive.directory)/shard\(k).sqlite"
            let result = try Self.scan(archive, db: path, ["--shard", "\(k)/2"])
            #expect(result.status == 0, "\(result.stderr)")
            return path
        }
        let merged = "\(archive.directory)/merged.sqlite"
        #expect(try QixProcess.run(["merge", merged] + shardDBs).status == 0)
        #expect(try Self.reportText(merged) == text)
        #expect(try QixProcess.run(["merge", merged] + shardDBs).status == 0)
        #expect(try Self.reportText(merged) == text, "merging again changes nothing")

        // The HTML timeline is produced and self-contained: one inline script, nothing loaded.
        let html = "\(archive.directory)/airings.html"
        #expect(try QixProcess.run(["report", db, "--html", html]).status == 0)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("<svg") && page.components(separatedBy: "<script").count == 2)
        #expect(!page.contains("src=") && !page.contains("href="))
        #expect(ScanArchive.spots.allSatisfy { page.contains($0.id) })

        // Expected IDs are part of the settings: every recording is scanned once more, then
        // skipped; the same spots are reported once each.
        let ids = Set(ScanArchive.spots.map(\.id)).sorted().joined(separator: ",")
        let expecting = try Self.scan(archive, db: db, ["--expect", ids])
        #expect(expecting.stderr.contains("scanned 6, skipped 0 unchanged"), "\(expecting.stderr)")
        let repeated = try Self.scan(archive, db: db, ["--expect", ids])
        #expect(repeated.stderr.contains("scanned 0, skipped 6 unchanged"), "\(repeated.stderr)")
        let expectedRows = try Self.airings(db)
        let expectedText = try Self.reportText(db)
        #expect(expectedRows.count == ScanArchive.spots.count, "\(expectedText)")
        #expect(Set(expectedRows.compactMap { $0["id"] as? String }) == Set(ScanArchive.spots.map(\.id)))
    }

    @Test("a scan killed with kill -9 half way and re-run ends with exactly the rows of an uninterrupted scan")
    func killAndResume() throws {
        let archive = try ScanArchive.make()
        defer { try? FileManager.default.removeItem(atPath: archive.directory) }
        let reference = "\(archive.directory)/reference.sqlite"
        #expect(try Self.scan(archive, db: reference).status == 0)

        let db = "\(archive.directory)/interrupted.sqlite"
        let process = Process()
        process.executableURL = QixProcess.executable
        process.arguments = ["scan", archive.recordings, "--db", db, "--key", archive.keyFile, "--jobs", "1", "--quiet"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until some, but not all, recordings are committed, then kill without warning.
        var done = 0
        for _ in 0..<600 where done < 2 {
            usleep(20_000)
            done = (try? AiringsDatabase(path: db, create: false, readOnly: true).recordings().count) ?? 0
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(done >= 2 && done < 6, "killed after \(done) recordings")

        let resumed = try Self.scan(archive, db: db)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try Self.reportText(db) == Self.reportText(reference))
    }

    @Test("bad inputs: unreadable, empty and non-audio files, a non-SQLite database, --shard 3/2")
    func badInputs() throws {
        let archive = try ScanArchive.make()
        defer { try? FileManager.default.removeItem(atPath: archive.directory) }
        let junk = "\(archive.recordings)/junk"
        try FileManager.default.createDirectory(atPath: junk, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: "\(junk)/empty_20261121_120000.wav", contents: Data())
        _ = FileManager.default.createFile(atPath: "\(junk)/notes_20261121_120000.mp3", contents: Data("not audio\n".utf8))
        _ = FileManager.default.createFile(atPath: "\(junk)/locked_20261121_120000.flac", contents: Data("x".utf8),
                                           attributes: [.posixPermissions: 0o000])
        // A sidecar named without the recording's extension is not read: a warning says so.
        try #"{"channel": "BBC1"}"#.write(toFile: "\(junk)/notes_20261121_120000.json", atomically: true, encoding: .utf8)
        let db = "\(archive.directory)/airings.sqlite"
        let result = try Self.scan(archive, db: db)
        #expect(result.status == 1)
        #expect(result.stderrLines.contains("qix: warning: \(junk)/notes_20261121_120000.json: ignored; the sidecar of \(junk)/notes_20261121_120000.mp3 is named \(junk)/notes_20261121_120000.mp3.json"), "\(result.stderr)")
        #expect(!result.stderr.contains("does not exist"), "a file that is no MP3 is not called missing: \(result.stderr)")
        #expect(result.stderr.contains("empty_20261121_120000.wav") && result.stderr.contains("notes_20261121_120000.mp3"))
        #expect(try Self.airings(db).count == ScanArchive.spots.count, "the good recordings are still scanned")
        let failures = try QixProcess.run(["report", db, "--failures"])
        #expect(failures.stdoutLines.count >= 2)

        let notSQLite = "\(archive.directory)/notes.sqlite"
        try "hello\n".write(toFile: notSQLite, atomically: true, encoding: .utf8)
        let refused = try Self.scan(archive, db: notSQLite)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("qix: error: cannot open database (\(notSQLite)): not an SQLite database"))
        #expect(try String(contentsOfFile: notSQLite, encoding: .utf8) == "hello\n", "left untouched")

        let shard = try Self.scan(archive, db: "\(archive.directory)/s.sqlite", ["--shard", "3/2"])
        #expect(shard.status == 1)
        #expect(shard.stderr.contains("(--shard)") && shard.stderr.contains("does not exist"))
    }

    @Test("folders of broadcast files: M4A and MPEG-TS found by extension, read by content; a cut ADTS file scanned up to the cut with one warning")
    func broadcastFormats() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let key = "\(dir)/campaign.key", archive = "\(dir)/archive"
        try "8c1f0e2d3b4a59687766554433221100\n".write(toFile: key, atomically: true, encoding: .utf8)
        // Owner-only, as qix keygen writes keys (qix warns about keys others can read).
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        try FileManager.default.createDirectory(atPath: archive, withIntermediateDirectories: true)
        let clip = "\(QixProcess.repository)/corpus/clips/a02_music_orchestral_wesnoth_heroes-rite.flac"
        try FFmpegTool.run(["-i", clip, "-t", "10", "-ar", "48000", "\(dir)/host.wav"])
        let embed = try QixProcess.run(["embed", "\(dir)/host.wav", "\(dir)/marked.wav", "--message", "5eed5ca1", "--key", key])
        #expect(embed.status == 0, "\(embed.stderr)")
        try FFmpegTool.encode("\(dir)/marked.wav", to: "\(archive)/BBC1_20261121_180000.m4a", ["-c:a", "aac", "-b:a", "128k"])
        try FFmpegTool.encode("\(dir)/marked.wav", to: "\(archive)/BBC2_20261121_180000.ts", ["-c:a", "mp2", "-b:a", "192k"])
        try FFmpegTool.encode("\(dir)/marked.wav", to: "\(dir)/whole.aac", ["-c:a", "aac", "-b:a", "128k"])
        try FFmpegTool.cut("\(dir)/whole.aac", to: "\(archive)/BBC3_20261121_180000.aac")
        let db = "\(dir)/airings.sqlite"
        let result = try QixProcess.run(["scan", archive, "--db", db, "--key", key, "--jobs", "1", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderrLines.count == 1 && result.stderrLines.first?.hasPrefix("qix: warning: \(archive)/BBC3_20261121_180000.aac: truncated input: ") == true,
                "\(result.stderr)")
        let found = try Self.airings(db).map { "\($0["channel"] ?? "") \($0["id"] ?? "")" }
        #expect(found == ["BBC1 5eed5ca1", "BBC2 5eed5ca1", "BBC3 5eed5ca1"], "\(found)")
    }
}
