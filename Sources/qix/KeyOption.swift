import ArgumentParser
import Foundation
import QixWatermark

/// Loads the `--key` file, or the public test key (with a warning) when none is given.
enum KeyOption {
    /// The key in `path`, or `WatermarkKey.publicTestKey` with a warning on stderr.
    static func load(_ path: String?) throws -> WatermarkKey {
        guard let path else {
            warnPublicKey()
            return WatermarkKey.publicTestKey
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure("cannot read key", path, "no such file")
        }
        guard !isDirectory.boolValue else { throw CommandFailure("cannot read key", path, "is a directory") }
        warnIfShared(path)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read key", path, "permission denied or unreadable")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure("invalid key", path, "not a text file of 32 hex digits")
        }
        do {
            return try WatermarkKey(hex: text, subject: path)
        } catch let error as WatermarkError {
            throw CommandFailure(error.what, path, error.reason)
        }
    }

    /// The keys of a repeated `--key`, in the order given, each with its path; a key given
    /// twice (one file, or two copies) is tried once. The public test key (no path) with a
    /// warning when none is given.
    static func loadAll(_ paths: [String]) throws -> [(path: String?, key: WatermarkKey)] {
        guard !paths.isEmpty else { return [(nil, try load(nil))] }
        var keys: [(path: String?, key: WatermarkKey)] = []
        for path in paths {
            let key = try load(path)
            if !keys.contains(where: { $0.key.fingerprint == key.fingerprint }) { keys.append((path, key)) }
        }
        return keys
    }

    /// Refuses a repeated `--key` where a command works with exactly one key (`task` says
    /// what for): argument-parser would otherwise keep the last one silently.
    static func requireOne(_ paths: [String], _ task: String) throws {
        if paths.count > 1 { throw ValidationError("--key given \(paths.count) times: \(task) with exactly one key") }
    }

    /// Says that the public test key is in use.
    static func warnPublicKey() {
        StandardError.warning("no --key given: using the public test key, which anyone can read and forge; for testing only")
    }

    /// Warns (one line, not an error) when group or others may read the key: whoever reads
    /// it can read and forge IDs, and `qix keygen` writes keys with mode 0600.
    static func warnIfShared(_ path: String) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & 0o044 != 0 else { return }
        let mode = String(status.st_mode & 0o777, radix: 8)
        StandardError.warning("\(path): key file is readable by group or others (mode \(mode)); 'chmod 600 \(path)' keeps it secret")
    }
}
