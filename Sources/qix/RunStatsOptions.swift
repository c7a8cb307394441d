import ArgumentParser

/// `--stats` and `--stats-after`, which `qix sim` and `qix cards` share: whether to print what
/// the run cost (`RunStats`) and from which simulated time on to count it.
struct RunStatsOptions: ParsableArguments {
    @Flag(help: ArgumentHelp(
        "At the end, print on stderr a 'stats:' line of JSON: the CPU seconds of the run, per simulated second and per world step, and the peak resident memory.",
        discussion: "Measured inside the process, so loading the scene is not counted; with --stats-after, nor are the first seconds of the run."))
    var stats = false

    @Option(help: "Count the CPU time of --stats from this simulated time on (seconds).")
    var statsAfter: Double = 0

    func validate() throws {
        if !(statsAfter >= 0 && statsAfter <= 3600) { throw ValidationError("--stats-after must be in [0, 3600] seconds") }
    }

    /// The counter for a run at `frameRate` frames a second (its warm-up cut to `seconds`, the
    /// run's length when known).
    func counter(frameRate: Double, seconds: Double = .infinity) -> RunStats {
        RunStats(warmUp: min(statsAfter, seconds), frameRate: frameRate)
    }

    /// Prints the `stats:` line when `--stats` asked for it.
    func report(_ counter: RunStats, frames: Int, items: Int) {
        if stats { StandardError.line("stats: " + counter.line(frames: frames, items: items)) }
    }
}
