import ArgumentParser
import QixAudio
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `qix` command: watermark audio, detect IDs, and run the dynamics engine headless.
@main
struct Qix: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qix",
        abstract: "QixKit: a keyed audio watermark codec and a deterministic 2D dynamics engine.",
        discussion: """
            Exit codes: 0 the command did its job (for detect, also when nothing was found); \
            1 bad input or failed work; 2 bad usage. Errors are one line on stderr: \
            'qix: error: <what> (<file or field>): <why>'. Machine-readable output goes to stdout.
            """,
        version: QixVersion.string,
        subcommands: [
            InfoCommand.self, KeygenCommand.self, EmbedCommand.self, DetectCommand.self, ListenCommand.self,
            ScanCommand.self, ReportCommand.self, MergeCommand.self, EvalCommand.self, SimCommand.self, CardsCommand.self,
        ])

    /// Parses, runs, and maps every outcome onto the documented exit codes: usage
    /// problems exit 2 (argument-parser's default would be 64), failed work exits 1.
    static func main() {
        ProcessMemory.keepFreedBlocks()
        unblockStopSignals()
        do {
            var command = try parseAsRoot()
            try command.run()
            Glibc.exit(0)
        } catch let code as ExitCode {
            Glibc.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help, --version and `qix help` arrive here as "errors".
                print(fullMessage(for: error))
                Glibc.exit(0)
            }
            if code.rawValue == EX_USAGE {
                let message = self.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
                let (subject, reason) = usageSubject(message)
                StandardError.line("qix: error: bad usage (\(subject)): \(reason). See 'qix --help'.")
                Glibc.exit(2)
            }
            StandardError.error(error)
            Glibc.exit(1)
        }
    }
}

/// Lets SIGINT, SIGTERM and SIGHUP through, in case the parent left them blocked (a child
/// started from a thread that blocks them inherits the mask, as Foundation's `Process` does
/// from a dispatch queue): Ctrl-C and `kill` must stop qix and let it remove its partial
/// files. Threads started later inherit this thread's mask.
func unblockStopSignals() {
    var stops = sigset_t()
    sigemptyset(&stops)
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stops, signalNumber) }
    pthread_sigmask(SIG_UNBLOCK, &stops, nil)
}

/// The option a usage message is about, for the error line's parentheses: our checks say
/// "--jobs must be at least 1", which becomes ("--jobs", "must be at least 1"); messages
/// about several options, or argument-parser's own, stay about the command line.
func usageSubject(_ message: String) -> (subject: String, reason: String) {
    let words = message.split(separator: " ", maxSplits: 1).map(String.init)
    guard words.count == 2, words[0].hasPrefix("--"), words[0].count > 2, !words[1].hasPrefix("and ") else {
        return ("command line", message)
    }
    return (words[0], words[1])
}

/// The QixKit release this binary was built from.
enum QixVersion {
    static let string = "0.1.0"
}
