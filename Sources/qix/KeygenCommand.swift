import ArgumentParser
import QixWatermark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `qix keygen`: writes a new random 128-bit watermark key, readable only by its owner.
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Write a new random 128-bit key (32 hex digits, file mode 0600).",
        discussion: """
            The key decides where and how IDs are hidden: keep it secret, since anyone who \
            holds it can read and forge IDs. An existing file is never overwritten without --force.
            """)

    @Argument(help: "Where to write the key.")
    var keyFile: String

    @Flag(help: "Overwrite an existing key file.")
    var force = false

    func run() throws {
        var status = stat()
        if stat(keyFile, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR { throw CommandFailure("cannot write key", keyFile, "is a directory") }
            if !force { throw CommandFailure("cannot write key", keyFile, "file exists; use --force to replace it") }
        }
        let key = WatermarkKey.random()
        try SecretFile.write(key.hex + "\n", to: keyFile)
        StandardError.line("qix: wrote key \(keyFile) (fingerprint \(key.fingerprint))")
    }
}

/// Writes small secret files atomically with mode 0600.
enum SecretFile {
    /// Writes `text` to a private temporary file beside `path`, then renames it into place.
    static func write(_ text: String, to path: String) throws {
        let partial = path + ".partial-\(getpid())"
        let fd = open(partial, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw CommandFailure("cannot write key", path, String(cString: strerror(errno))) }
        let bytes = Array(text.utf8)
        let put = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard put == bytes.count, synced, rename(partial, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(partial)
            throw CommandFailure("cannot write key", path, reason)
        }
    }
}
