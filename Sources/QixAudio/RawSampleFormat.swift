/// The sample coding of a headerless PCM stream.
public enum RawSampleFormat: String, Sendable, CaseIterable {
    /// Signed 16-bit little-endian integers.
    case s16le
    /// Signed 24-bit little-endian integers, packed in 3 bytes.
    case s24le
    /// Signed 32-bit little-endian integers.
    case s32le
    /// 32-bit little-endian IEEE floats.
    case f32le

    /// Bytes per sample.
    public var bytesPerSample: Int {
        switch self {
        case .s16le: return 2
        case .s24le: return 3
        case .s32le, .f32le: return 4
        }
    }

    /// Parses a name as given on the command line, with a clear error for unknown ones.
    public static func parse(_ name: String) throws -> RawSampleFormat {
        guard let format = RawSampleFormat(rawValue: name.lowercased()) else {
            throw AudioError("unknown sample format", parameter: "sampleFormat",
                             "'\(name)'; use one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return format
    }

    /// Converts `count` samples of raw bytes into floats in [-1, 1).
    @inlinable
    public func decode(_ bytes: UnsafeRawBufferPointer, count: Int, into output: UnsafeMutablePointer<Float>) {
        switch self {
        case .s16le:
            for i in 0..<count {
                let value = Int16(bitPattern: UInt16(bytes[2 * i]) | UInt16(bytes[2 * i + 1]) << 8)
                output[i] = Float(value) * (1 / 32768)
            }
        case .s24le:
            for i in 0..<count {
                let raw = UInt32(bytes[3 * i]) | UInt32(bytes[3 * i + 1]) << 8 | UInt32(bytes[3 * i + 2]) << 16
                let value = Int32(bitPattern: raw << 8) >> 8
                output[i] = Float(value) * (1 / 8_388_608)
            }
        case .s32le:
            for i in 0..<count {
                let raw = UInt32(bytes[4 * i]) | UInt32(bytes[4 * i + 1]) << 8
                    | UInt32(bytes[4 * i + 2]) << 16 | UInt32(bytes[4 * i + 3]) << 24
                output[i] = Float(Int32(bitPattern: raw)) * (1 / 2_147_483_648)
            }
        case .f32le:
            for i in 0..<count {
                let raw = UInt32(bytes[4 * i]) | UInt32(bytes[4 * i + 1]) << 8
                    | UInt32(bytes[4 * i + 2]) << 16 | UInt32(bytes[4 * i + 3]) << 24
                output[i] = Float(bitPattern: raw)
            }
        }
    }
}
