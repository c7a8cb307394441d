#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QixDynamics
import QixEval
import QixMarkup

/// `--stats` of `qix sim` and `qix cards`: what the run cost, measured inside the process (as
/// Box2D's own benchmark measures itself), so that loading the scene and starting the program
/// are not counted: the CPU seconds of the frames after a warm-up, per world step, and the
/// peak resident memory.
struct RunStats {
    /// Display frames per simulated second.
    let frameRate: Double
    /// Frames not counted: those up to the warm-up time.
    let warmUpFrames: Int
    private var start: Double

    /// Starts counting now, or once `warmUp` simulated seconds have been run.
    init(warmUp seconds: Double, frameRate: Double) {
        self.frameRate = frameRate
        warmUpFrames = Int((seconds * frameRate).rounded())
        start = ProcessClock.cpuSeconds()
    }

    /// Marks the end of display frame `frame` (1 for the first).
    mutating func frameDone(_ frame: Int) {
        if frame == warmUpFrames { start = ProcessClock.cpuSeconds() }
    }

    /// The JSON line for a run of `frames` frames of `items` items, read when the run ends.
    func line(frames: Int, items: Int) -> String {
        // A run that ended within its warm-up measured nothing.
        let cpu = frames > warmUpFrames ? ProcessClock.cpuSeconds() - start : 0
        let seconds = Double(max(0, frames - warmUpFrames)) / frameRate
        let steps = (seconds / PhysicsConstants.stepDuration).rounded()
        var line = JSONLine()
        line.add("items", items)
        line.add("warm_up_seconds", Double(warmUpFrames) / frameRate)
        line.add("seconds", seconds)
        line.add("steps", Int(steps))
        line.add("cpu_seconds", cpu)
        line.add("cpu_seconds_per_simulated_second", seconds > 0 ? cpu / seconds : nil)
        line.add("ms_per_step", steps > 0 ? 1000 * cpu / steps : nil)
        line.add("peak_kb", Self.peakResidentKilobytes())
        return line.string
    }

    /// The process's peak resident memory so far (kilobytes, as the kernel counts it).
    static func peakResidentKilobytes() -> Int {
        #if canImport(Glibc)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)  // Glibc imports RUSAGE_SELF as an enum case
        #else
        let who = RUSAGE_SELF
        #endif
        var usage = rusage()
        guard getrusage(who, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)
    }
}
