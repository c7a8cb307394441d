import Foundation
/// The bits a watermark frame carries: the 32-bit ID followed by a 24-bit keyed check
/// (the first bits of HMAC-SHA-256 over the ID under the key). The check is what keeps
/// a garbage decode from being reported: it passes by chance with probability 2^-24.
public struct WatermarkPayload: Sendable, Equatable {
    /// The 32-bit ID.
    public let message: UInt32

    /// Wraps an ID.
    public init(message: UInt32) { self.message = message }

    /// Parses exactly 8 ASCII hex digits (case-insensitive), the `--message` form.
    public init(hex text: String) throws {
        guard text.utf8.count == 8, case .success(let bytes) = HexDigits.bytes(Substring(text)) else {
            throw WatermarkError("invalid message", parameter: "message",
                                 "expected exactly 8 hex digits (a 32-bit ID), got '\(text)'")
        }
        message = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The ID as 8 lowercase hex digits.
    public var hex: String { Self.hex(message) }

    /// Formats an ID as 8 lowercase hex digits.
    public static func hex(_ message: UInt32) -> String {
        String(format: "%08x", message)
    }

    /// The keyed check bits for `message` under `key`.
    static func check(_ message: UInt32, key: WatermarkKey) -> [UInt8] {
        let bytes = key.derive("qixkit-wm-v1/check/" + hex(message), count: 4)
        var bits: [UInt8] = []
        for index in 0..<WatermarkParameters.checkBits {
            bits.append((bytes[index / 8] >> (7 - UInt8(index % 8))) & 1)
        }
        return bits
    }

    /// ID bits (most significant first) followed by the check bits.
    public func bits(key: WatermarkKey) -> [UInt8] {
        (0..<WatermarkParameters.messageBits).map { UInt8((message >> (31 - UInt32($0))) & 1) }
            + Self.check(message, key: key)
    }

    /// The ID in decoded payload bits when their check matches under `key`, else nil.
    public static func verify(_ bits: [UInt8], key: WatermarkKey) -> WatermarkPayload? {
        guard bits.count == WatermarkParameters.payloadBits else { return nil }
        var message: UInt32 = 0
        for bit in bits.prefix(WatermarkParameters.messageBits) { message = message << 1 | UInt32(bit & 1) }
        return Array(bits.suffix(WatermarkParameters.checkBits)) == check(message, key: key)
            ? WatermarkPayload(message: message) : nil
    }
}
