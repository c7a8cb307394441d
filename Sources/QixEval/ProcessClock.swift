#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CPU time this process has used, so that a benchmark can report CPU beside wall
/// time on a shared machine, where the two differ by the other processes' share.
public enum ProcessClock {
    /// CPU seconds used by this process so far (all threads, user and system).
    public static func cpuSeconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
