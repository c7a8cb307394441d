import Foundation
import Testing
import QixAudio

/// Raw PCM decoding, pipes that deliver bytes in odd pieces, and streams cut mid-frame.
@Suite("Raw PCM streams")
struct RawPCMReaderTests {
    /// Little-endian bytes of known sample values in each format.
    static func encode(_ values: [Double], as format: RawSampleFormat) -> [UInt8] {
        var bytes: [UInt8] = []
        for v in values {
            switch format {
            case .s16le:
                let x = UInt16(bitPattern: Int16((v * 32768).rounded().clamped(-32768, 32767)))
                bytes += [UInt8(x & 0xFF), UInt8(x >> 8)]
            case .s24le:
                let x = UInt32(bitPattern: Int32((v * 8_388_608).rounded().clamped(-8_388_608, 8_388_607)))
                bytes += [UInt8(x & 0xFF), UInt8((x >> 8) & 0xFF), UInt8((x >> 16) & 0xFF)]
            case .s32le:
                let x = UInt32(bitPattern: Int32((v * 2_147_483_648).rounded().clamped(-2_147_483_648, 2_147_483_647)))
                bytes += (0..<4).map { UInt8((x >> (8 * $0)) & 0xFF) }
            case .f32le:
                let x = Float(v).bitPattern
                bytes += (0..<4).map { UInt8((x >> (8 * $0)) & 0xFF) }
            }
        }
        return bytes
    }

    /// Reads everything from `reader`.
    static func drain(_ reader: RawPCMReader) throws -> [Float] {
        var all: [Float] = []
        let block = UnsafeMutableBufferPointer<Float>.allocate(capacity: 1000 * reader.channels)
        defer { block.deallocate() }
        while true {
            let frames = try reader.read(into: block)
            if frames == 0 { return all }
            all += block[0 ..< frames * reader.channels]
        }
    }

    /// Writes `bytes` into a pipe in pieces of `piece` bytes from another thread and
    /// returns the read end.
    static func pipe(_ bytes: [UInt8], piece: Int) -> Int32 {
        var ends: [Int32] = [0, 0]
        #expect(Foundation.pipe(&ends) == 0)
        let writeEnd = ends[1]
        let thread = Thread {
            var offset = 0
            while offset < bytes.count {
                let n = min(piece, bytes.count - offset)
                _ = bytes[offset ..< offset + n].withUnsafeBytes { write(writeEnd, $0.baseAddress, n) }
                offset += n
                usleep(50)
            }
            close(writeEnd)
        }
        thread.start()
        return ends[0]
    }

    static let values: [Double] = [0, 0.5, -0.5, 0.25, -1, 0.999, -0.125, 0.0625, 0.3, -0.7, 0.01, -0.01]

    @Test("decodes every format exactly", arguments: RawSampleFormat.allCases)
    func decodes(_ format: RawSampleFormat) throws {
        let fd = Self.pipe(Self.encode(Self.values, as: format), piece: 5)
        let reader = try RawPCMReader(fd: fd, format: format, channels: 2, sampleRate: 48000, closeWhenDone: true)
        let got = try Self.drain(reader)
        #expect(got.count == Self.values.count)
        let tolerance: Double = format == .s16le ? 1.0 / 32768 : 1.0 / 8_000_000
        for (a, b) in zip(got, Self.values) { #expect(abs(Double(a) - b) <= tolerance) }
        #expect(reader.droppedBytes == 0)
        #expect(reader.framesRead == Int64(Self.values.count / 2))
    }

    @Test("a stream cut mid-frame drops the partial frame and says how much", arguments: [1, 3, 7])
    func partialFrame(_ extra: Int) throws {
        var bytes = Self.encode(Self.values, as: .s24le)   // 6 stereo frames of 6 bytes
        bytes += [UInt8](repeating: 0x7F, count: extra)
        let fd = Self.pipe(bytes, piece: 4)
        let reader = try RawPCMReader(fd: fd, format: .s24le, channels: 2, sampleRate: 48000, closeWhenDone: true)
        let got = try Self.drain(reader)
        #expect(got.count == Self.values.count + (extra / 6) * 2)
        #expect(reader.droppedBytes == extra % 6)
        #expect(reader.isAtEnd)
    }

    @Test("unknown formats and bad stream parameters are refused with the field named")
    func badParameters() throws {
        #expect((try? RawSampleFormat.parse("S16LE")) == .s16le)
        let error = #expect(throws: AudioError.self) { try RawSampleFormat.parse("u8") }
        #expect(error?.parameter == "sampleFormat")
        #expect(throws: AudioError.self) { try RawPCMReader(fd: 0, format: .s16le, channels: 0, sampleRate: 48000) }
        #expect(throws: AudioError.self) { try RawPCMReader(fd: 0, format: .s16le, channels: 1, sampleRate: 0) }
    }
}

extension Double {
    func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(Swift.max(self, low), high) }
}
