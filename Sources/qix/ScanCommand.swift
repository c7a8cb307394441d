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
            file name through --name-pattern (UTC). A recording that starts where its channel's \
            previous one ends is also searched together with that one's last 20 s, so a spot cut \
            by the file boundary is one airing from where it starts. Shards: --shard K/N (K from 1 to N), or \
            --shard-count N with SLURM_ARRAY_TASK_ID (task K scans shard K/N, so submit \
            --array=1-N or any subset: stepped, sparse, re-submitted) or JOB_COMPLETION_INDEX \
            (0 to N-1); give each shard its own database and combine them with 'qix merge'. \
            --key may be repeated: every recording is searched with each key (decoded and analysed once, \
            searched once per key: up to N times the search's CPU), the IDs any key finds are stored, \
            and the summary says per key how many detections it made (the database does not store which \
            key found an ID). Progress on stderr moves within each recording by the seconds decoded, with \
            the rate and the time left: redrawn on a terminal, a line at most every 10 s otherwise, none with -q. \
            Exit 1 when any recording failed (they are stored with their error: 'qix report --failures').
            """)

    @Argument(help: "Recordings, folders and manifests.")
    var paths: [String]

    @Option(help: "The SQLite database (created when missing).")
    var db: String

    @Option(help: "Key file (32 hex digits); without it the public test key is used. Repeat it to try several keys; a recording scanned before with another set of keys is scanned again.")
    var key: [String] = []

    @Option(parsing: .unconditional, help: "Recordings scanned at once (default: the number of cores).")
    var jobs: Int?

    @Option(help: "Scan only share K of N (1-based), e.g. 2/8.")
    var shard: String?

    @Option(parsing: .unconditional, help: "Number of shards N when the index comes from SLURM_ARRAY_TASK_ID (1 to N) or JOB_COMPLETION_INDEX (0 to N-1).")
    var shardCount: Int?

    @Option(help: "File-name layout giving channel and UTC start, with {channel} {YYYY} {MM} {DD} {hh} {mm} {ss} and *.")
    var namePattern = RecordingNamePattern.standard.text

    @Option(help: ArgumentHelp(ExpectOption.help + " A recording scanned before with another set is scanned again.",
                               valueName: "ids"))
    var expect: [String] = []

    @OptionGroup var quietOption: QuietOption

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let shardCount, shardCount < 1 { throw ValidationError("--shard-count must be at least 1") }
    }

    /// The shard to scan: `--shard K/N` wins over the scheduler's variables; a
    /// `--shard-count` with no index to go with it is refused rather than scanning everything.
    static func shard(_ text: String?, count: Int?, environment: [String: String]) throws -> ScanShard {
        if let text {
            let parsed = try ScanShard(parsing: text)
            if let count, count != parsed.count {
                throw CommandFailure("invalid shard", "--shard-count", "\(count) contradicts --shard \(text)")
            }
            return parsed
        }
        if let fromScheduler = try ScanShard.fromEnvironment(environment, shardCount: count) { return fromScheduler }
        if let count {
            throw CommandFailure("invalid shard", "--shard-count",
                                 "\(count) shards, but no index: neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set (by hand, use --shard K/\(count))")
        }
        return .whole
    }

    func run() throws {
        quietOption.apply()
        let expected = try ExpectOption.parse(expect)
        let keys = try KeyOption.loadAll(key)
        let pattern = try RecordingNamePattern(namePattern)
        let chosenShard = try Self.shard(shard, count: shardCount, environment: ProcessInfo.processInfo.environment)
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
        let analyzer = try WatermarkRecordingAnalyzer(keys: keys.map(\.key), expected: expected)
        let tally = ScanKeyTally(paths: keys.map { $0.path ?? "public test key" })
        // From the whole catalog: a shard reads on from predecessors another shard scans.
        let sequence = ChannelSequence(paths: catalog.paths, pattern: pattern)
        let scanner = RecordingScanner(database: database, keyFingerprint: analyzer.settingsFingerprint, pattern: pattern,
                                       jobs: workers, sequence: sequence, analyzeJunction: { path, junction, progress in
            let analysis = try analyzer.analyze(path: path, after: junction, progress: progress)
            if let damage = analysis.damage { StandardError.warning(damage) }
            tally.add(analysis)
            return analysis
        })
        let run = ScanRun(uuid: UUID().uuidString.lowercased(),
                          startedAt: WallClockTime(secondsSinceEpoch: Date().timeIntervalSince1970),
                          qixkitVersion: QixVersion.string, keyFingerprint: analyzer.settingsFingerprint,
                          host: ProcessInfo.processInfo.hostName, shard: chosenShard.count > 1 ? chosenShard.description : nil)
        let display = ScanProgressDisplay(enabled: !quietOption.quiet, shard: chosenShard)
        let (progress, failures) = try scanner.scan(selected, run: run) { progress, path in display.update(progress, path) }
        display.finish(progress)
        if keys.count > 1 { for line in tally.lines { StandardError.info("qix: \(line)") } }
        for failure in failures { StandardError.error(failure) }
        if !failures.isEmpty || !catalog.problems.isEmpty { throw ExitCode.failure }
    }
}
