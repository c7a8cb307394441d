import Foundation
import Testing
import QixScan

/// `qix scan` as the tasks of Slurm job arrays of every layout run it (the environment
/// Slurm sets, `--shard-count`), merged with `qix merge` and held to one unsharded scan.
@Suite("qix scan in job arrays", .serialized)
struct ScanShardCommandTests {
    /// Everything a database says about the archive: every recording row (but its row id
    /// and the scan run that wrote it) and every detection, in path order.
    static func contents(_ db: String) throws -> [String] {
        let store = try AiringsDatabase(path: db, create: false, readOnly: true)
        let recordings = try store.recordings().map { recording -> String in
            var row = recording
            row.id = 0
            return "\(row)"
        }
        let detections = try store.detections().map { "\($0.recording.file.path) \($0.detection)" }
        return recordings + detections
    }

    /// What Slurm sets in task `task` of an array whose task IDs are `tasks`.
    static func slurm(_ task: Int, of tasks: [Int]) -> [String: String] {
        ["SLURM_ARRAY_JOB_ID": "77", "SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_MIN": "\(tasks.min()!)",
         "SLURM_ARRAY_TASK_MAX": "\(tasks.max()!)", "SLURM_ARRAY_TASK_COUNT": "\(tasks.count)"]
    }

    /// Runs every task of every array in `arrays` (task IDs) with `count` shards, each into
    /// `shard-<task>.sqlite` under `directory`, as scan-array.sbatch does.
    static func runArrays(_ arrays: [[Int]], count: Int, archive: ScanArchive, directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for tasks in arrays {
            for task in tasks {
                let result = try QixProcess.run(["scan", archive.recordings, "--db", "\(directory)/shard-\(task).sqlite",
                                                 "--key", archive.keyFile, "--jobs", "2", "--shard-count", "\(count)"],
                                                environment: slurm(task, of: tasks))
                #expect(result.status == 0, "task \(task) of \(tasks): \(result.stderr)")
                #expect(result.stderr.contains("(shard \(task)/\(count))"), "task \(task) scans shard \(task)/\(count): \(result.stderr)")
            }
        }
    }

    /// Merges every `shard-*.sqlite` in `directory` into `merged.sqlite` there.
    static func merge(_ directory: String) throws -> String {
        let shards = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasPrefix("shard-") && $0.hasSuffix(".sqlite") }.sorted().map { "\(directory)/\($0)" }
        let merged = "\(directory)/merged.sqlite"
        let result = try QixProcess.run(["merge", merged, "--quiet"] + shards)
        #expect(result.status == 0, "\(result.stderr)")
        return merged
    }

    @Test("stepped, sparse and re-submitted arrays merge to exactly the rows and reports of the unsharded scan")
    func arrayLayouts() throws {
        let archive = try ScanArchive.make()
        defer { try? FileManager.default.removeItem(atPath: archive.directory) }
        let whole = "\(archive.directory)/whole.sqlite"
        #expect(try QixProcess.run(["scan", archive.recordings, "--db", whole, "--key", archive.keyFile, "--quiet"]).status == 0)
        let reference = try Self.contents(whole)
        let report = try QixProcess.run(["report", whole, "--json"]).stdout
        #expect(reference.count >= 6 + ScanArchive.spots.count, "6 recordings and a detection per spot at least")

        let layouts: [(name: String, arrays: [[Int]], count: Int)] = [
            ("stepped --array=1-8:2 and 2-8:2", [[1, 3, 5, 7], [2, 4, 6, 8]], 8),
            ("sparse --array=2,5,9 and the rest", [[2, 5, 9], [1, 3, 4, 6, 7, 8, 10]], 10),
        ]
        for layout in layouts {
            let directory = "\(archive.directory)/\(layout.count)-\(layout.arrays[0].count)"
            try Self.runArrays(layout.arrays, count: layout.count, archive: archive, directory: directory)
            let merged = try Self.merge(directory)
            #expect(try Self.contents(merged) == reference, "\(layout.name)")
            #expect(try QixProcess.run(["report", merged, "--json"]).stdout == report, "\(layout.name)")
        }

        // --array=1-4 where tasks 2 and 3 lost their databases, re-submitted as --array=2,3:
        // each re-submitted task scans its own shard again, nothing else.
        let directory = "\(archive.directory)/resubmitted"
        try Self.runArrays([[1, 2, 3, 4]], count: 4, archive: archive, directory: directory)
        let lost = try [2, 3].map { task -> [String] in
            let path = "\(directory)/shard-\(task).sqlite"
            let rows = try Self.contents(path)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            return rows
        }
        try Self.runArrays([[2, 3]], count: 4, archive: archive, directory: directory)
        #expect(try [2, 3].map { try Self.contents("\(directory)/shard-\($0).sqlite") } == lost, "the same shards again")
        #expect(try Self.contents(Self.merge(directory)) == reference)
    }

    @Test("task IDs outside 1..N, a missing --shard-count and a count without an index are one-line errors, exit 1")
    func arrayErrors() throws {
        let archive = try ScanArchive.make()
        defer { try? FileManager.default.removeItem(atPath: archive.directory) }
        let db = "\(archive.directory)/s.sqlite"
        func scan(_ extra: [String], _ environment: [String: String]) throws -> QixProcess.Result {
            try QixProcess.run(["scan", archive.recordings, "--db", db, "--key", archive.keyFile] + extra, environment: environment)
        }
        for task in [0, 9] {
            let result = try scan(["--shard-count", "8"], Self.slurm(task, of: [task]))
            #expect(result.status == 1)
            #expect(result.stderrLines == ["qix: error: invalid shard (SLURM_ARRAY_TASK_ID): task \(task) is not a shard of 8: array task IDs are the shard numbers 1 to 8 (an array of 1-8, or any subset of it)"],
                    "\(result.stderr)")
        }
        let noCount = try scan([], Self.slurm(3, of: [3, 7]))
        #expect(noCount.status == 1)
        #expect(noCount.stderrLines.count == 1 && noCount.stderr.hasPrefix("qix: error: invalid shard (--shard-count): SLURM_ARRAY_TASK_ID is set"),
                "\(noCount.stderr)")
        let kubernetes = try scan(["--shard-count", "3"], ["JOB_COMPLETION_INDEX": "3"])
        #expect(kubernetes.status == 1 && kubernetes.stderr.contains("(JOB_COMPLETION_INDEX): index 3 is not a shard of 3"), "\(kubernetes.stderr)")
        let countOnly = try scan(["--shard-count", "4"], [:])
        #expect(countOnly.status == 1 && countOnly.stderr.hasPrefix("qix: error: invalid shard (--shard-count): 4 shards, but no index"),
                "\(countOnly.stderr)")
        let contradiction = try scan(["--shard", "2/8", "--shard-count", "4"], [:])
        #expect(contradiction.status == 1 && contradiction.stderr.contains("(--shard-count)"), "\(contradiction.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "no database is made before the shard is known")
    }
}
