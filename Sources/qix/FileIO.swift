import QixAudio
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and complete-or-absent writes (a partial file renamed into place).
enum FileIO {
    /// Reads a whole file.
    static func read(_ path: String, what: String) throws -> [UInt8] {
        guard let f = fopen(path, "rb") else { throw CommandFailure(what, path, String(cString: strerror(errno))) }
        defer { fclose(f) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, 65536, f) }
            if n > 0 { out.append(contentsOf: chunk[0..<n]) }
            if n < 65536 {
                if ferror(f) != 0 { throw CommandFailure(what, path, "read error") }
                break
            }
        }
        return out
    }

    /// A text file written through `AtomicFile` (the one complete-or-absent writer of
    /// QixKit, shared with the audio writer), with its bytes gathered in large writes.
    final class AtomicWriter {
        let path: String
        private let file: AtomicFile
        private var buffer: [UInt8] = []

        /// Opens the hidden partial file for `path` with file mode `permissions`.
        init(_ path: String, permissions: mode_t = 0o644, what: String = "cannot write") throws {
            self.path = path
            file = try AtomicFile(path: path, permissions: permissions, what: what)
            buffer.reserveCapacity(1 << 16)
        }

        /// Appends text plus a newline.
        func line(_ text: String) throws {
            buffer.append(contentsOf: text.utf8)
            buffer.append(0x0A)
            if buffer.count >= 1 << 16 { try flush() }
        }

        /// Appends text.
        func write(_ text: String) throws {
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= 1 << 16 { try flush() }
        }

        private func flush() throws {
            try buffer.withUnsafeBytes { try file.append($0) }
            buffer.removeAll(keepingCapacity: true)
        }

        /// Writes what is gathered, syncs and renames into place.
        func commit() throws {
            try flush()
            try file.commit()
        }
    }
}
