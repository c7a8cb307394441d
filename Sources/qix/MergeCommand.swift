import ArgumentParser
import QixScan

/// `qix merge`: combines shard databases into one, idempotently.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge scan databases (e.g. one per shard) into one.",
        discussion: """
            OUT is created when missing. Merging is idempotent: merging the same input twice \
            changes nothing, and the shards of one scan merge into exactly the rows of an \
            unsharded scan. When two inputs hold the same recording, a successful scan beats \
            a failed one, then the newer file wins.
            """)

    @Argument(help: "The database to merge into.")
    var output: String

    @Argument(help: "Databases to merge from.")
    var inputs: [String]

    @OptionGroup var quietOption: QuietOption

    func run() throws {
        quietOption.apply()
        let target = try AiringsDatabase(path: output)
        var failed = 0
        for input in inputs {
            do {
                let source = try AiringsDatabase(path: input, create: false, readOnly: true)
                let summary = try target.merge(from: source)
                StandardError.info("qix: merged \(input): \(summary.recordingsAdded) recordings added, \(summary.recordingsUnchanged) unchanged, \(summary.recordingsKept) kept, \(summary.runsAdded) runs added")
            } catch {
                failed += 1
                StandardError.error(error)
            }
        }
        if failed > 0 { throw ExitCode.failure }
    }
}
