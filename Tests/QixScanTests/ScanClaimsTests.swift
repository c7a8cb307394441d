import Foundation
import Testing
import QixScan

/// Two scans into one database share the work through claims: a recording claimed by a
/// running scan is left to it, and a claim whose process died is taken over.
struct ScanClaimsTests {
    /// Counts the analyses of each path, across threads.
    final class Analyses: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [String: Int] = [:]
        func add(_ path: String) { lock.lock(); counts[path, default: 0] += 1; lock.unlock() }
        var all: [String: Int] { lock.lock(); defer { lock.unlock() }; return counts }
    }

    @Test func aRecordingClaimedByARunningScanIsLeftAndADeadOnesClaimIsTakenOver() throws {
        let dir = try ScanFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["a", "b", "c"] { try ScanFixtures.write("duration 60\nabcd0001 10 20\n", to: "\(dir)/\(name).flac") }
        let database = try AiringsDatabase(path: "\(dir)/airings.sqlite")
        let host = ScanClaimant.current.host
        // b is being scanned by a running process (pid 1 always runs); c's scanner was killed.
        #expect(try database.claim("\(dir)/b.flac", for: ScanClaimant(host: host, pid: 1)))
        #expect(try database.claim("\(dir)/c.flac", for: ScanClaimant(host: host, pid: 999_999), isRunning: { _ in true }))
        let progress = try ScanFixtures.scan(["\(dir)/a.flac", "\(dir)/b.flac", "\(dir)/c.flac"], into: database)
        #expect(progress.scanned == 2 && progress.skipped == 1)
        #expect(try database.recordings().map { $0.file.path } == ["\(dir)/a.flac", "\(dir)/c.flac"])
        #expect(try database.claims().keys.sorted() == ["\(dir)/b.flac"], "only the running scan's claim is left")

        // Once b's scan is over, the next run takes it.
        try database.release("\(dir)/b.flac", for: ScanClaimant(host: host, pid: 1))
        let rerun = try ScanFixtures.scan(["\(dir)/a.flac", "\(dir)/b.flac", "\(dir)/c.flac"], into: database)
        #expect(rerun.scanned == 1 && rerun.skipped == 2)
    }

    @Test func twoScansAtOnceAnalyseEachRecordingOnce() throws {
        let dir = try ScanFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let paths = (0..<24).map { "\(dir)/r\($0).flac" }
        for path in paths { try ScanFixtures.write("duration 30\n0a1b2c3d 1 4\n", to: path) }
        let analyses = Analyses()
        let analyzer: RecordingScanner.Analyzer = { path in
            analyses.add(path)
            return try ScanFixtures.textAnalyzer(path)
        }
        let host = ScanClaimant.current.host
        // Two scanners of two (running) processes, each with its own connection.
        let claimants = [ScanClaimant(host: host, pid: getpid()), ScanClaimant(host: host, pid: 1)]
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            do {
                let database = try AiringsDatabase(path: "\(dir)/airings.sqlite")
                let scanner = RecordingScanner(database: database, keyFingerprint: "k", jobs: 2,
                                               claimant: claimants[index], analyze: analyzer)
                results.add(try scanner.scan(paths, run: ScanFixtures.run(), report: { _, _ in }).0)
            } catch {
                results.fail("\(error)")
            }
        }
        #expect(results.errors.isEmpty, "\(results.errors)")
        #expect(analyses.all.count == paths.count && analyses.all.values.allSatisfy { $0 == 1 }, "\(analyses.all)")
        #expect(results.scanned == paths.count && results.skipped == paths.count)
        let database = try AiringsDatabase(path: "\(dir)/airings.sqlite")
        #expect(try database.recordings().count == paths.count)
        #expect(try database.claims().isEmpty)
    }

    /// What the two scans returned.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var scanned = 0, skipped = 0
        private(set) var errors: [String] = []
        func add(_ progress: ScanProgress) { lock.lock(); scanned += progress.scanned; skipped += progress.skipped; lock.unlock() }
        func fail(_ text: String) { lock.lock(); errors.append(text); lock.unlock() }
    }
}
