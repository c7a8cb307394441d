import Foundation
import QixAudio
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes diagnostics and progress to standard error, unbuffered, one line at a time.
enum StandardError {
    /// Writes `text` and a newline to stderr.
    static func line(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let put = write(STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset)
                if put <= 0 { return }
                offset += put
            }
        }
    }

    /// Replaces the terminal's current line with `text` (no newline): a progress display's
    /// redraw; an empty `text` erases the line.
    static func redraw(_ text: String) {
        FileHandle.standardError.write(Data(("\r" + text + "\u{1B}[K").utf8))
    }

    /// Set by `-q/--quiet`: `info` lines and progress displays stay silent.
    nonisolated(unsafe) static var quiet = false

    /// Writes an informational line (a summary, a file written), unless `--quiet`.
    static func info(_ text: String) { if !quiet { line(text) } }

    /// Writes `qix: error: <error>`, the library's parameters named as the CLI's flags.
    static func error(_ error: Error) { line("qix: error: \(ParameterFlags.describe(error))") }

    /// Writes `qix: warning: <text>`.
    static func warning(_ text: String) { line("qix: warning: \(text)") }

    /// One warning for a cut or damaged input, once it has been read: the span it lost and
    /// what the decoder met (libmpg123's messages on a damaged MP3, instead of the library's
    /// own lines); nothing for an intact file.
    static func inputDamage(_ reader: AudioFileReader) {
        if let report = reader.damageReport { warning(report) }
    }
}

/// A failed input or piece of work in the CLI itself: the same one-line error as the libraries'.
typealias CommandFailure = QixError
