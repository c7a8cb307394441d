import Foundation
import QixScan
#if canImport(Glibc)
import Glibc
#endif

/// Shows scan progress on stderr, moving within each recording by the seconds decoded
/// (`ProgressMeter`): on a terminal a bar redrawn at most four times a second; otherwise
/// (logs, CI, batch jobs) a plain line at most every 10 seconds; then a summary.
final class ScanProgressDisplay: @unchecked Sendable {
    /// Seconds between two plain lines in a log: a long scan leaves a trace, not a flood.
    static let logInterval = 10.0

    private let enabled: Bool
    private let isTerminal: Bool
    private let shard: ScanShard
    private var meter: ProgressMeter
    private let lock = NSLock()

    init(enabled: Bool, shard: ScanShard, clock: @escaping () -> Double = ProgressMeter.monotonicSeconds) {
        self.enabled = enabled
        self.shard = shard
        meter = ProgressMeter(clock: clock)
        isTerminal = isatty(STDERR_FILENO) == 1
    }

    /// Called after each recording and as recordings are read.
    func update(_ progress: ScanProgress, _ path: String) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let last = progress.finished == progress.total
        if isTerminal {
            guard meter.due() || last else { return }
            StandardError.redraw("[\(Self.bar(progress))] \(status(progress))")
        } else if meter.due(every: Self.logInterval) || last {
            StandardError.line("qix: scan \(status(progress))")
        }
    }

    /// Ends the bar and prints the summary.
    func finish(_ progress: ScanProgress) {
        guard enabled else { return }
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
        let elapsed = max(0.001, meter.elapsed)
        let shardText = shard.count > 1 ? " (shard \(shard))" : ""
        StandardError.line("qix: scanned \(progress.scanned), skipped \(progress.skipped) unchanged, \(progress.failed) failed of \(progress.total) recordings\(shardText); \(fixed(progress.audioSeconds / 3600, 2)) h of audio in \(fixed(elapsed, 1)) s (\(Int(progress.audioSeconds / elapsed))x real time)")
    }

    /// "3/10 recordings, 0:31:12 of 2:00:00 audio (26 %), 85x real time, ETA 1m05s".
    func status(_ progress: ScanProgress) -> String {
        "\(progress.finished)/\(progress.total) recordings, "
            + meter.status(decoded: progress.decodedSeconds, expected: progress.expectedSeconds)
    }

    /// A 24-character bar of the audio decoded (of the recordings finished while no length is known).
    static func bar(_ progress: ScanProgress) -> String {
        let width = 24
        let fraction: Double
        if let expected = progress.expectedSeconds, expected > 0 {
            fraction = progress.decodedSeconds / expected
        } else {
            fraction = progress.total > 0 ? Double(progress.finished) / Double(progress.total) : 1
        }
        let filled = Int(Double(width) * min(1, max(0, fraction)))
        return String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
    }
}
