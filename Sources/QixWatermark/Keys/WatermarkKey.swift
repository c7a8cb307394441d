import Crypto
import Foundation

/// A 128-bit secret that keys every pseudo-random choice of the watermark, so that
/// without it nobody can read or forge an ID.
///
/// Stored on disk as 32 lowercase hex digits and a newline (`qix keygen`).
public struct WatermarkKey: Sendable, Equatable {
    /// The 16 key bytes.
    public let bytes: [UInt8]

    /// Wraps 16 bytes; other lengths are rejected.
    public init(bytes: [UInt8]) throws {
        guard bytes.count == 16 else {
            throw WatermarkError("invalid key", "key", "needs 16 bytes, got \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// A new key from the system's cryptographic random source.
    public static func random() -> WatermarkKey {
        var generator = SystemRandomNumberGenerator()
        return try! WatermarkKey(bytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The fixed, publicly known key used when none is given: for tests and demos only,
    /// since anyone can read and forge IDs made with it.
    public static let publicTestKey = try! WatermarkKey(hex: "516978417564696f5465737420b7e151")

    /// Parses 32 ASCII hex digits (surrounding white space allowed); `subject` names the
    /// source in errors.
    public init(hex text: String, subject: String = "key") throws {
        try self.init(bytes: KeyFileText.keyBytes(text, subject: subject))
    }

    /// The key as 32 lowercase hex digits.
    public var hex: String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// A public fingerprint (first 8 bytes of SHA-256 over a domain tag and the key, as
    /// hex) that identifies a key in logs and databases without revealing it.
    public var fingerprint: String {
        var hasher = SHA256()
        hasher.update(data: Array("qixkit-key-fingerprint-v1".utf8))
        hasher.update(data: bytes)
        return hasher.finalize().prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// Keyed pseudo-random bytes for one named use (`label`), by HMAC-SHA-256 in counter
    /// mode: each use of the key draws from its own independent stream.
    public func derive(_ label: String, count: Int) -> [UInt8] {
        let symmetric = SymmetricKey(data: bytes)
        var output: [UInt8] = []
        output.reserveCapacity(count)
        var counter: UInt32 = 0
        while output.count < count {
            var mac = HMAC<SHA256>(key: symmetric)
            mac.update(data: Array(label.utf8))
            withUnsafeBytes(of: counter.bigEndian) { mac.update(data: Array($0)) }
            output.append(contentsOf: mac.finalize())
            counter += 1
        }
        return Array(output.prefix(count))
    }
}
