import Foundation
import QixScan
#if canImport(Glibc)
import Glibc
#endif

/// Shows scan progress on stderr: a redrawn bar on a terminal, a plain line every
/// 10 seconds otherwise (logs, CI, batch jobs), and a summary at the end.
final class ScanProgressDisplay: @unchecked Sendable {
    private let enabled: Bool
    private let isTerminal: Bool
    private let shard: ScanShard
    private let started = Date()
    private var lastLine = Date.distantPast
    private let lock = NSLock()

    init(enabled: Bool, shard: ScanShard) {
        self.enabled = enabled
        self.shard = shard
        isTerminal = isatty(STDERR_FILENO) == 1
    }

    /// Called after each recording.
    func update(_ progress: ScanProgress, _ path: String) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        if isTerminal {
            let width = 24
            let filled = progress.total > 0 ? width * progress.finished / progress.total : width
            let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
            let text = "\r[\(bar)] \(status(progress, now))"
            FileHandle.standardError.write(Data((text + "\u{1B}[K").utf8))
        } else if now.timeIntervalSince(lastLine) >= 10 || progress.finished == progress.total {
            lastLine = now
            StandardError.line("qix: scan \(status(progress, now))")
        }
    }

    /// Ends the bar and prints the summary.
    func finish(_ progress: ScanProgress) {
        guard enabled else { return }
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
        let elapsed = max(0.001, Date().timeIntervalSince(started))
        let shardText = shard.count > 1 ? " (shard \(shard))" : ""
        StandardError.line("qix: scanned \(progress.scanned), skipped \(progress.skipped) unchanged, \(progress.failed) failed of \(progress.total) recordings\(shardText); \(fixed(progress.audioSeconds / 3600, 2)) h of audio in \(fixed(elapsed, 1)) s (\(Int(progress.audioSeconds / elapsed))x real time)")
    }

    private func status(_ p: ScanProgress, _ now: Date) -> String {
        let elapsed = max(0.001, now.timeIntervalSince(started))
        let speed = p.audioSeconds / elapsed
        let remaining = p.total - p.finished
        let perRecording = p.finished > 0 ? elapsed / Double(p.finished) : 0
        let eta = Int(perRecording * Double(remaining))
        return "\(p.finished)/\(p.total) recordings, \(fixed(p.audioSeconds / 3600, 2)) h audio, \(Int(speed))x real time, ETA \(eta / 60)m\(eta % 60)s"
    }
}
