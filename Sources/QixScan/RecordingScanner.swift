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
    /// Seconds of audio scanned in this run.
    public var audioSeconds = 0.0

    /// Recordings finished one way or another.
    public var finished: Int { scanned + skipped + failed }
}

/// Scans recordings in parallel into an `AiringsDatabase`, skipping what is already done
/// and unchanged, and committing each recording in its own transaction.
public final class RecordingScanner: Sendable {
    /// Reads one recording and returns what the watermark detector found in it.
    public typealias Analyzer = @Sendable (String) throws -> RecordingAnalysis

    let database: AiringsDatabase
    let analyze: Analyzer
    let keyFingerprint: String
    let pattern: RecordingNamePattern
    let jobs: Int
    /// Whom the scanner's claims name (this process).
    let claimant: ScanClaimant

    /// Prepares a scanner; `jobs` recordings are read at once.
    public init(database: AiringsDatabase, keyFingerprint: String, pattern: RecordingNamePattern = .standard,
                jobs: Int, claimant: ScanClaimant = .current, analyze: @escaping Analyzer) {
        self.database = database
        self.claimant = claimant
        self.keyFingerprint = keyFingerprint
        self.pattern = pattern
        self.jobs = max(1, jobs)
        self.analyze = analyze
    }

    /// Scans `paths` under `run`, calling `report` after each recording (from worker
    /// threads, serialised), and returns the final counts and the failures.
    public func scan(_ paths: [String], run: ScanRun,
                     report: @escaping @Sendable (ScanProgress, String) -> Void) throws -> (ScanProgress, [ScanError]) {
        try database.begin(run)
        let state = ScanState(total: paths.count)
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, paths.count))) { _ in
            while let path = state.next(paths) {
                let outcome = scanOne(path, runUUID: run.uuid)
                let progress = state.record(outcome)
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

    private func scanOne(_ path: String, runUUID: String) -> Outcome {
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
        do {
            if try database.isUpToDate(file, keyFingerprint: keyFingerprint) { return .skipped }
            guard try database.claim(path, for: claimant) else { return .skipped }
            if try database.isUpToDate(file, keyFingerprint: keyFingerprint) {
                try database.release(path, for: claimant)
                return .skipped
            }
        } catch { return .fatal(Self.scanError(error, "cannot read database", database.path)) }
        defer { try? database.release(path, for: claimant) }

        let result: Result<RecordingAnalysis, ScanError>
        var origin = RecordingOrigin(channel: nil, start: nil)
        do {
            origin = try RecordingOrigin.of(path, pattern: pattern)
            result = .success(try analyze(path))
        } catch {
            result = .failure(Self.scanError(error, "cannot scan recording", path))
        }
        do {
            try database.store(file: file, channel: origin.channel, wallclockStart: origin.start, outcome: result,
                               keyFingerprint: keyFingerprint, runUUID: runUUID)
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

    init(total: Int) { progress = ScanProgress(total: total) }

    func next(_ paths: [String]) -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard fatal == nil, cursor < paths.count else { return nil }
        cursor += 1
        return paths[cursor - 1]
    }

    func record(_ outcome: RecordingScanner.Outcome) -> ScanProgress {
        lock.lock()
        defer { lock.unlock() }
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
