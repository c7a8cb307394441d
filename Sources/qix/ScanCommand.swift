import ArgumentParser
import Foundation
import QixScan
import QixWatermark

/// `qix scan`: detects IDs in recordings and stores them in an airings database.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan recordings for watermark IDs into an SQLite airings database.",
        discussion: """
            PATHs are recordings, folders (walked recursively, hidden entries skipped) and \
            manifests (.txt/.list/.m3u: one path per line). Re-running on the same database \
            skips recordings already scanned, unchanged, with the same key; changed ones are \
            re-scanned. Each recording is committed on its own, so an interrupted scan loses \
            only the recordings in flight: just run it again. Channel and wall-clock start come \
            from a sidecar RECORDING.json ({"channel": "...", "start": "ISO 8601"}) or from the \
            file name through --name-pattern (UTC). Shards: --shard K/N, or set automatically \
            from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or JOB_COMPLETION_INDEX with \
            --shard-count; give each shard its own database and combine them with 'qix merge'. \
            Exit 1 when any recording failed (they are stored with their error: 'qix report --failures').
            """)

    @Argument(help: "Recordings, folders and manifests.")
    var paths: [String]

    @Option(help: "The SQLite database (created when missing).")
    var db: String

    @Option(help: "Key file (32 hex digits); without it the public test key is used.")
    var key: String?

    @Option(parsing: .unconditional, help: "Recordings scanned at once (default: the number of cores).")
    var jobs: Int?

    @Option(help: "Scan only share K of N (1-based), e.g. 2/8.")
    var shard: String?

    @Option(parsing: .unconditional, help: "Number of shards when the index comes from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID.")
    var shardCount: Int?

    @Option(help: "File-name layout giving channel and UTC start, with {channel} {YYYY} {MM} {DD} {hh} {mm} {ss} and *.")
    var namePattern = RecordingNamePattern.standard.text

    @Option(help: ArgumentHelp(ExpectOption.help + " A recording scanned before with another set is scanned again.",
                               valueName: "ids"))
    var expect: [String] = []

    @Flag(name: .shortAndLong, help: "No progress or summary on stderr.")
    var quiet = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let shardCount, shardCount < 1 { throw ValidationError("--shard-count must be at least 1") }
    }

    func run() throws {
        StandardError.quiet = quiet
        let expected = try ExpectOption.parse(expect)
        let watermarkKey = try KeyOption.load(key)
        let pattern = try RecordingNamePattern(namePattern)
        let chosenShard = try shard.map(ScanShard.init(parsing:))
            ?? ScanShard.fromEnvironment(ProcessInfo.processInfo.environment, shardCount: shardCount)
            ?? shardCount.map { _ in ScanShard.whole } ?? .whole
        let catalog = RecordingCatalog(inputs: paths)
        for problem in catalog.problems { StandardError.error(problem) }
        let selected = catalog.paths.filter(chosenShard.contains)
        let database = try AiringsDatabase(path: db)
        for path in selected {
            if let ignored = RecordingOrigin.misnamedSidecar(of: path) {
                StandardError.warning("\(ignored): ignored; the sidecar of \(path) is named \(path).json")
            }
        }
        let workers = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let analyzer = WatermarkRecordingAnalyzer(key: watermarkKey, expected: expected)
        let scanner = RecordingScanner(database: database, keyFingerprint: analyzer.settingsFingerprint, pattern: pattern,
                                       jobs: workers, analyze: { path in
            let analysis = try analyzer.analyze(path: path)
            if let damage = analysis.damage { StandardError.warning(damage) }
            return analysis
        })
        let run = ScanRun(uuid: UUID().uuidString.lowercased(),
                          startedAt: WallClockTime(secondsSinceEpoch: Date().timeIntervalSince1970),
                          qixkitVersion: QixVersion.string, keyFingerprint: analyzer.settingsFingerprint,
                          host: ProcessInfo.processInfo.hostName, shard: chosenShard.count > 1 ? chosenShard.description : nil)
        let display = ScanProgressDisplay(enabled: !quiet, shard: chosenShard)
        let (progress, failures) = try scanner.scan(selected, run: run) { progress, path in display.update(progress, path) }
        display.finish(progress)
        for failure in failures { StandardError.error(failure) }
        if !failures.isEmpty || !catalog.problems.isEmpty { throw ExitCode.failure }
    }
}
