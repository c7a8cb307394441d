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

    /// A file being written under a temporary name; `commit()` syncs it to disk and
    /// renames it into place, so `path` holds the complete file or nothing new.
    final class AtomicWriter {
        let path: String
        let partial: String
        /// What failed, for error lines ("cannot write key").
        let what: String
        private var file: UnsafeMutablePointer<FILE>?
        private var buffer: [UInt8] = []

        /// Opens `path.partial-<pid>` for writing with file mode `permissions`. The partial
        /// file is created afresh (a leftover or a planted link there is never written through).
        init(_ path: String, permissions: mode_t = 0o644, what: String = "cannot write") throws {
            self.path = path
            self.partial = path + ".partial-\(getpid())"
            self.what = what
            unlink(partial)
            let fd = open(partial, O_WRONLY | O_CREAT | O_EXCL, permissions)
            guard fd >= 0, let f = fdopen(fd, "wb") else {
                let reason = String(cString: strerror(errno))
                throw CommandFailure(what, path, reason)
            }
            file = f
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
            guard let file else { return }
            let n = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            if n != buffer.count { throw CommandFailure(what, path, String(cString: strerror(errno))) }
            buffer.removeAll(keepingCapacity: true)
        }

        /// Flushes, closes and renames into place.
        func commit() throws {
            try flush()
            guard let f = file else { return }
            file = nil
            let synced = fflush(f) == 0 && fsync(fileno(f)) == 0
            let closed = fclose(f) == 0
            guard synced, closed, rename(partial, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(partial)
                throw CommandFailure(what, path, reason)
            }
        }

        deinit {
            if let file {
                fclose(file)
                unlink(partial)
            }
        }
    }
}
