import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress display for `qix detect` on long recordings: redrawn on stderr at
/// most twice a second while a terminal is watching, erased when the file is done, and
/// silent in logs and pipes (where the result lines are what matters).
struct DetectProgressLine {
    /// Recordings shorter than this finish before a progress line would help.
    static let minimumSeconds = 600.0

    private let path: String
    private let totalSeconds: Double
    private let sampleRate: Double
    private let enabled: Bool
    private let started = Date()
    private var lastDrawn = Date.distantPast
    private var drawn = false

    /// A display for `path`, of `totalSeconds` (0 when unknown) at `sampleRate`.
    init(path: String, totalSeconds: Double, sampleRate: Int) {
        self.path = path
        self.totalSeconds = totalSeconds
        self.sampleRate = Double(sampleRate)
        enabled = totalSeconds >= Self.minimumSeconds && isatty(STDERR_FILENO) == 1 && !StandardError.quiet
    }

    /// Called with the frames read so far.
    mutating func update(framesRead: Int64) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDrawn) >= 0.5 else { return }
        lastDrawn = now
        let seconds = Double(framesRead) / sampleRate
        let percent = Int(100 * seconds / totalSeconds)
        let speed = Int(seconds / max(0.001, now.timeIntervalSince(started)))
        let text = "\rqix detect: \(path): \(percent) % (\(Int(seconds / 60)) of \(Int(totalSeconds / 60)) min, \(speed)x real time)"
        FileHandle.standardError.write(Data((text + "\u{1B}[K").utf8))
        drawn = true
    }

    /// Erases the line, so that the results print on a clean terminal.
    func finish() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
