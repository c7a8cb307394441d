#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The progress of `qix detect` on a long recording, on one line of stderr redrawn at
/// most four times a second while a terminal is watching (`ProgressMeter`), erased when the
/// file is done, and silent in logs and pipes (where the result lines are what matters).
struct DetectProgressLine {
    /// Recordings shorter than this finish before a progress line would help.
    static let minimumSeconds = 600.0

    private let path: String
    private let totalSeconds: Double
    private let sampleRate: Double
    private let enabled: Bool
    private var meter = ProgressMeter()
    private var drawn = false

    /// A display for `path`, of `totalSeconds` (0 when unknown) at `sampleRate`.
    init(path: String, totalSeconds: Double, sampleRate: Int) {
        self.path = path
        self.totalSeconds = totalSeconds
        self.sampleRate = Double(max(1, sampleRate))
        enabled = totalSeconds >= Self.minimumSeconds && isatty(STDERR_FILENO) == 1 && !StandardError.quiet
    }

    /// Called with the frames read so far.
    mutating func update(framesRead: Int64) {
        guard enabled, meter.due() else { return }
        let seconds = Double(framesRead) / sampleRate
        StandardError.redraw("qix detect: \(path): \(meter.status(decoded: seconds, expected: totalSeconds))")
        drawn = true
    }

    /// Erases the line, so that the results print on a clean terminal.
    func finish() {
        guard drawn else { return }
        StandardError.redraw("")
    }
}
