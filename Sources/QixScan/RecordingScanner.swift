import Foundation

/// Where a recording came from in time and on air.
public struct RecordingOrigin: Sendable, Equatable {
    /// Channel name, when known.
    public var channel: String?
    /// Wall-clock time of the first sample, when known.
    public var start: WallClockTime?

    /// Makes an origin.
    public init(channel: String?, start: WallClockTime?) {
        self.channel = channel
        self.start = start
    }

    /// The origin of `path`: its sidecar `<path>.json` (`{"channel": "...", "start": "ISO 8601"}`)
    /// when present, else its file name read through `pattern`, else unknown.
    public static func of(_ path: String, pattern: RecordingNamePattern) throws -> RecordingOrigin {
        let sidecar = path + ".json"
        if FileManager.default.fileExists(atPath: sidecar) {
            guard let data = FileManager.default.contents(atPath: sidecar),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw ScanError("invalid sidecar", sidecar, "not a JSON object")
            }
            let channel = object["channel"] as? String
            var start: WallClockTime?
            if let text = object["start"] as? String {
                guard let parsed = WallClockTime(iso8601: text) else {
                    throw ScanError("invalid sidecar", sidecar + ": start", "'\(text)' is not an ISO 8601 time")
                }
                start = parsed
            }
            return RecordingOrigin(channel: channel, start: start)
        }
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if let match = pattern.match(fileName: name) { return RecordingOrigin(channel: match.channel, start: match.start) }
        return RecordingOrigin(channel: nil, start: nil)
    }

    /// A sidecar named without the recording's extension (`x.json` beside `x.flac`, where
    /// `x.flac.json` is read), which is ignored: its path, so the front end can say so.
    public static func misnamedSidecar(of path: String) -> String? {
        guard !FileManager.default.fileExists(atPath: path + ".json") else { return nil }
        let stem = (path as NSString).deletingPathExtension
        guard stem != path, FileManager.default.fileExists(atPath: stem + ".json") else { return nil }
        return stem + ".json"
    }
}

/// Counts of a scan so far, for progress display and the final summary.
public struct ScanProgress: Sendable, Equatable {
    /// Recordings in this shard.
    public var total = 0
    /// Recordings scanned in this run.
    public var scanned = 0
    /// Recordings skipped as already done and unchanged.
    public var skipped = 0
    /// Recordings that failed.
    public var failed = 0
    /// Seconds of audio scanned in this run, in finished recordings.
    public var audioSeconds = 0.0
    /// Recordings being read that have reported how far they are.
    public var reading = 0
    /// Seconds decoded so far in the recordings being read.
    public var readingSeconds = 0.0
    /// Seconds the recordings being read hold, as their headers declare (what has been
    /// decoded, where that is more or the header says nothing).
    public var readingDeclaredSeconds = 0.0

    /// Counts of a scan of `total` recordings, nothing done yet.
    public init(total: Int = 0) { self.total = total }

    /// Recordings finished one way or another.
    public var finished: Int { scanned + skipped + failed }

    /// Seconds of audio decoded in this run, in finished recordings and in those being read.
    public var decodedSeconds: Double { audioSeconds + readingSeconds }

    /// Seconds of audio this run decodes in all, as far as can be told without opening every
    /// file first: the recordings scanned, the headers of those being read, and for the rest
    /// the mean length of those; nil while no length is known. Recordings that turn out to
    /// be unchanged are skipped, so this is an upper bound on a re-run.
    public var expectedSeconds: Double? {
        let known = audioSeconds + readingDeclaredSeconds
        let unopened = total - finished - reading
        guard unopened > 0 else { return known }
        guard scanned + reading > 0 else { return nil }
        return known + known / Double(scanned + reading) * Double(unopened)
    }
}

/// Scans recordings in parallel into an `AiringsDatabase`, skipping what is already done
/// and unchanged, and committing each recording in its own transaction.
public final class RecordingScanner: Sendable {
    /// Reads one recording and returns what the watermark detector found in it.
    public typealias Analyzer = @Sendable (String) throws -> RecordingAnalysis
    /// An analyzer that also says how far it has read: it calls its second argument with the
    /// seconds decoded so far and the seconds the file's header declares (0 when unknown).
    public typealias ReportingAnalyzer = @Sendable (String, (_ decoded: Double, _ declared: Double) -> Void) throws -> RecordingAnalysis
    /// A reporting analyzer that reads a recording on from its junction with the recording
    /// before it on its channel (nil when none abuts it), as the scanner's sequence gives it.
    public typealias JunctionAnalyzer = @Sendable (String, RecordingJunction?, (_ decoded: Double, _ declared: Double) -> Void)
        throws -> RecordingAnalysis

    let database: AiringsDatabase
    let analyze: JunctionAnalyzer
    let keyFingerprint: String
    let pattern: RecordingNamePattern
    /// The channels' recordings in order, when recordings are read on from their predecessors.
    let sequence: ChannelSequence?
    let jobs: Int
    /// Whom the scanner's claims name (this process).
    let claimant: ScanClaimant

    /// Prepares a scanner; `jobs` recordings are read at once.
    public convenience init(database: AiringsDatabase, keyFingerprint: String, pattern: RecordingNamePattern = .standard,
                            jobs: Int, claimant: ScanClaimant = .current, analyze: @escaping Analyzer) {
        self.init(database: database, keyFingerprint: keyFingerprint, pattern: pattern, jobs: jobs, claimant: claimant,
                  analyzeReporting: { path, _ in try analyze(path) })
    }

    /// Prepares a scanner whose analyzer says how far it has read each recording, so that
    /// progress moves within a recording; `jobs` recordings are read at once.
    public convenience init(database: AiringsDatabase, keyFingerprint: String, pattern: RecordingNamePattern = .standard,
                            jobs: Int, claimant: ScanClaimant = .current, analyzeReporting analyze: @escaping ReportingAnalyzer) {
        self.init(database: database, keyFingerprint: keyFingerprint, pattern: pattern, jobs: jobs, claimant: claimant,
                  sequence: nil, analyzeJunction: { path, _, progress in try analyze(path, progress) })
    }

    /// Prepares a scanner that hands its analyzer each recording's junction from `sequence`
    /// (the channels' recordings in order), and scans a recording again when the recording
    /// before it on its channel, which the analyzer reads on from, has changed or first
    /// appeared; `jobs` recordings are read at once.
    public init(database: AiringsDatabase, keyFingerprint: String, pattern: RecordingNamePattern = .standard,
                jobs: Int, claimant: ScanClaimant = .current, sequence: ChannelSequence?,
                analyzeJunction analyze: @escaping JunctionAnalyzer) {
        self.database = database
        self.sequence = sequence
        self.claimant = claimant
        self.keyFingerprint = keyFingerprint
        self.pattern = pattern
        self.jobs = max(1, jobs)
        self.analyze = analyze
    }

    /// Scans `paths` under `run`, calling `report` (from worker threads) after each
    /// recording and each time the analyzer says how far it has read one, and returns the
    /// final counts and the failures.
    public func scan(_ paths: [String], run: ScanRun,
                     report: @escaping @Sendable (ScanProgress, String) -> Void) throws -> (ScanProgress, [ScanError]) {
        try database.begin(run)
        let state = ScanState(total: paths.count)
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, paths.count))) { _ in
            while let next = state.next(paths) {
                let (index, path) = next
                let outcome = scanOne(path, runUUID: run.uuid) { decoded, declared in
                    report(state.reading(index, decoded: decoded, declared: declared), path)
                }
                let progress = state.record(outcome, index: index)
                report(progress, path)
            }
        }
        if let fatal = state.fatal { throw fatal }
        try database.finish(runUUID: run.uuid, at: WallClockTime(secondsSinceEpoch: Date().timeIntervalSince1970))
        return (state.progress, state.failures)
    }

    enum Outcome {
        case scanned(seconds: Double)
        case skipped
        case failed(ScanError)
        /// The database itself failed: the scan stops.
        case fatal(ScanError)
    }

    private func scanOne(_ path: String, runUUID: String, progress: (Double, Double) -> Void) -> Outcome {
        let file: RecordingFile
        do { file = try RecordingFile(path: path) } catch {
            // A vanished or unreadable file is recorded so the report can list it.
            let failure = Self.scanError(error, "cannot read recording", path)
            let placeholder = RecordingFile(stored: path, size: 0, modificationTime: 0, fingerprint: "")
            do {
                try database.store(file: placeholder, channel: nil, wallclockStart: nil, outcome: .failure(failure),
                                   keyFingerprint: keyFingerprint, runUUID: runUUID)
            } catch { return .fatal(Self.scanError(error, "cannot write database", database.path)) }
            return .failed(failure)
        }
        // Another scan into the same database may hold it; the claim is checked again
        // against what is stored, for a scan that finished it between the two looks.
        let junction = sequence?.junctionIdentity(before: path) ?? ""
        do {
            if try database.isUpToDate(file, keyFingerprint: keyFingerprint, junction: junction) { return .skipped }
            guard try database.claim(path, for: claimant) else { return .skipped }
            if try database.isUpToDate(file, keyFingerprint: keyFingerprint, junction: junction) {
                try database.release(path, for: claimant)
                return .skipped
            }
        } catch { return .fatal(Self.scanError(error, "cannot read database", database.path)) }
        defer { try? database.release(path, for: claimant) }

        let result: Result<RecordingAnalysis, ScanError>
        var origin = RecordingOrigin(channel: nil, start: nil)
        do {
            origin = try RecordingOrigin.of(path, pattern: pattern)
            result = .success(try analyze(path, sequence?.junction(before: path), progress))
        } catch {
            result = .failure(Self.scanError(error, "cannot scan recording", path))
        }
        do {
            try database.store(file: file, channel: origin.channel, wallclockStart: origin.start, outcome: result,
                               keyFingerprint: keyFingerprint, junction: junction, runUUID: runUUID)
        } catch { return .fatal(Self.scanError(error, "cannot write database", database.path)) }
        switch result {
        case .success(let analysis): return .scanned(seconds: analysis.duration)
        case .failure(let error): return .failed(error)
        }
    }

    /// The error as QixKit's one-line error: as it is when it already is one (every
    /// QixKit module throws those), else wrapped with what was being done and to what.
    private static func scanError(_ error: any Error, _ what: String, _ subject: String) -> ScanError {
        error as? ScanError ?? ScanError(what, subject, "\(error)")
    }
}

/// The shared work list and counters of one scan, guarded by a lock.
private final class ScanState: @unchecked Sendable {
    private let lock = NSLock()
    private var cursor = 0
    private(set) var progress: ScanProgress
    private(set) var failures: [ScanError] = []
    private(set) var fatal: ScanError?
    /// Seconds decoded and declared of each recording being read, by its place in the list.
    private var open: [Int: (decoded: Double, declared: Double)] = [:]

    init(total: Int) { progress = ScanProgress(total: total) }

    func next(_ paths: [String]) -> (Int, String)? {
        lock.lock()
        defer { lock.unlock() }
        guard fatal == nil, cursor < paths.count else { return nil }
        cursor += 1
        return (cursor - 1, paths[cursor - 1])
    }

    /// Notes how far the recording at `index` has been read, and returns the counts.
    func reading(_ index: Int, decoded: Double, declared: Double) -> ScanProgress {
        lock.lock()
        defer { lock.unlock() }
        open[index] = (decoded, declared)
        sumOpen()
        return progress
    }

    private func sumOpen() {
        progress.reading = open.count
        progress.readingSeconds = open.values.reduce(0) { $0 + $1.decoded }
        progress.readingDeclaredSeconds = open.values.reduce(0) { $0 + max($1.decoded, $1.declared) }
    }

    func record(_ outcome: RecordingScanner.Outcome, index: Int) -> ScanProgress {
        lock.lock()
        defer { lock.unlock() }
        if open.removeValue(forKey: index) != nil { sumOpen() }
        switch outcome {
        case .scanned(let seconds):
            progress.scanned += 1
            progress.audioSeconds += seconds
        case .skipped: progress.skipped += 1
        case .failed(let error):
            progress.failed += 1
            failures.append(error)
        case .fatal(let error):
            if fatal == nil { fatal = error }
        }
        return progress
    }
}
