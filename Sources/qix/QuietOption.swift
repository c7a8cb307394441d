import ArgumentParser

/// `-q/--quiet`, which every command takes: no progress, summary or informational lines on
/// stderr. Warnings and errors still show, since they change what the output means.
struct QuietOption: ParsableArguments {
    @Flag(name: .shortAndLong, help: "No progress or summary lines on stderr (warnings and errors still show).")
    var quiet = false

    /// Applies the choice to every informational line the command writes.
    func apply() { StandardError.quiet = quiet }
}
