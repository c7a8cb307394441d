import Crypto
import Foundation

/// What identifies one recording on disk for re-scans: size, modification time and a
/// content fingerprint, so an unchanged file is skipped and a changed one re-scanned.
public struct RecordingFile: Sendable, Equatable {
    /// The path as given or found by the walk.
    public var path: String
    /// Bytes.
    public var size: Int64
    /// Modification time, seconds since 1970.
    public var modificationTime: Double
    /// SHA-256 (first 16 bytes, hex) over the size and three 64 KiB samples (start,
    /// middle, end): cheap on multi-hour files yet sensitive to any re-encode or cut.
    public var fingerprint: String

    /// Reads a file's identity; throws a `ScanError` naming the path when it cannot.
    public init(path: String) throws {
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch {
            throw ScanError("cannot read recording", path, FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")
        }
        guard attributes[.type] as? FileAttributeType != .typeDirectory else {
            throw ScanError("cannot read recording", path, "is a directory")
        }
        self.path = path
        size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        modificationTime = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        fingerprint = try Self.fingerprint(path: path, size: size)
    }

    static func fingerprint(path: String, size: Int64) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ScanError("cannot read recording", path, "permission denied")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        withUnsafeBytes(of: size.littleEndian) { hasher.update(bufferPointer: $0) }
        let sample: Int64 = 65_536
        let offsets: [Int64] = size <= 3 * sample ? [0] : [0, size / 2 - sample / 2, size - sample]
        for offset in offsets {
            try handle.seek(toOffset: UInt64(offset))
            let data = try handle.read(upToCount: Int(size <= 3 * sample ? size : sample)) ?? Data()
            hasher.update(data: data)
        }
        return hasher.finalize().prefix(16).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}
