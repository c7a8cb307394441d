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

    @Argument(help: "Where to write the key ('-' prints it on stdout, e.g. for a secret store).")
    var keyFile: String

    @Flag(help: "Overwrite an existing key file.")
    var force = false

    @OptionGroup var quietOption: QuietOption

    func run() throws {
        quietOption.apply()
        if keyFile == "-" {
            let key = WatermarkKey.random()
            print(key.hex)
            StandardError.info("qix: wrote a key to stdout (fingerprint \(key.fingerprint))")
            return
        }
        var status = stat()
        if stat(keyFile, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR { throw CommandFailure("cannot write key", keyFile, "is a directory") }
            if !force { throw CommandFailure("cannot write key", keyFile, "file exists; use --force to replace it") }
        }
        let key = WatermarkKey.random()
        let writer = try FileIO.AtomicWriter(keyFile, permissions: 0o600, what: "cannot write key")
        try writer.write(key.hex + "\n")
        try writer.commit()
        StandardError.info("qix: wrote key \(keyFile) (fingerprint \(key.fingerprint))")
    }
}
