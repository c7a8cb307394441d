import ArgumentParser
import QixMarkup
import QixScenes

/// Output options `qix sim` and `qix cards` share: the per-frame trace, the final
/// state hash and the film strip's frame count (CONTRACTS.md names them alike).
struct RunOutputOptions: ParsableArguments {
    @Option(help: "Write one JSON line per frame to this file ('-' for stdout).")
    var trace: String?

    @Flag(help: "Print 'hash: <16 hex>' of the final state as the last line (with '--trace -', the last JSON line {\"hash\": ...}).")
    var hash = false

    @Option(parsing: .unconditional, help: "Number of frames in the film strip (spread evenly).")
    var renderFrames = 8

    func validate() throws {
        if renderFrames < 1 || renderFrames > 100 { throw ValidationError("--render-frames must be 1...100") }
    }

    /// Prints the final state's hash when `--hash` asked for it: `hash: <16 hex>`, or as a
    /// last JSON line when the trace's JSON lines go to stdout too, so that stream stays
    /// JSON lines throughout.
    func printHash(_ hash: UInt64) {
        guard self.hash else { return }
        if trace == "-" {
            var line = JSONLine()
            line.add("hash", StateHash.hex(hash))
            print(line.string)
        } else {
            print("hash: \(StateHash.hex(hash))")
        }
    }
}
