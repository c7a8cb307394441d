import Foundation
import Testing
@testable import QixAudio
import QixTestSupport

/// Parts of the FLAC format the reference encoder does not write but other encoders do,
/// in a stream built bit by bit: escaped (raw) residual partitions, Rice parameter 0 and
/// 5-bit parameters, a code longer than the bit cache, wasted bits, variable block sizes
/// with sample numbers, and sample rates coded in the header. The own decoder must take
/// every frame and give libFLAC's samples.
struct FLACHandBuiltStreamTests {
    @Test func escapesVariableBlocksAndLongCodesDecodeLikeLibFLAC() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/hand.flac"
        let (bytes, samples) = Self.stream()
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let reference = try FLACFrameReaderTests.decode(path, channels: 1, frames: .libFLAC)
        #expect(reference.streamError == nil && reference.samples.count == samples.count)
        #expect(reference.samples == samples.map { Float($0) / 32_768 }, "the stream decodes to the values written")
        for frames in [FLACDecoder.Frames.own, .ownPortable] {
            let own = try FLACFrameReaderTests.decode(path, channels: 1, frames: frames)
            #expect(own.handedOverAt == nil, "\(frames)")
            #expect(FLACDecoderTests.firstDifference(own.samples, reference.samples) == nil, "\(frames)")
        }
    }

    /// A mono 16-bit stream of three frames and the samples it holds.
    static func stream() -> ([UInt8], [Int32]) {
        var samples: [Int32] = []
        var frames: [[UInt8]] = []
        // Frame 1: 100 samples, fixed order 2, 5-bit Rice parameters, partition order 2 (4 x
        // 25 values): an escaped partition of 5-bit raw residuals, an escaped one of width 0
        // (all zero), then Rice parameters 3 and 0.
        do {
            var residuals: [Int32] = (0..<98).map { Int32(($0 * 7) % 11) - 5 }
            for i in 23..<48 { residuals[i] = 0 }
            let warmUp: [Int32] = [1_000, 1_010]
            var w = BitWriter()
            w.subframeHeader(type: 8 + 2, wasted: 0)
            for value in warmUp { w.signed(value, bits: 16) }
            w.bits(1, 2)   // 5-bit parameters
            w.bits(2, 4)   // partition order 2
            w.bits(31, 5); w.bits(5, 5)
            for value in residuals[0..<23] { w.signed(value, bits: 5) }
            w.bits(31, 5); w.bits(0, 5)
            w.bits(3, 5)
            for value in residuals[48..<73] { w.rice(value, parameter: 3) }
            w.bits(0, 5)
            for value in residuals[73...] { w.rice(value, parameter: 0) }
            frames.append(frame(w, blocksize: 100, sampleNumber: 0, rateCode: 9))
            var s = warmUp
            for r in residuals { s.append(r + 2 * s[s.count - 1] - s[s.count - 2]) }
            samples += s
        }
        // Frame 2: 64 samples, LPC order 3 with 2 wasted bits, Rice parameter 0 with one
        // residual long enough that its zeros outrun a refill; the rate as 16-bit Hz.
        do {
            var residuals: [Int32] = (0..<61).map { Int32(($0 % 5) - 2) }
            residuals[30] = 70
            let warmUp: [Int32] = [50, 60, 65], coefficients: [Int32] = [3, -2, 1], shift = 1
            var w = BitWriter()
            w.subframeHeader(type: 32 + 2, wasted: 2)
            for value in warmUp { w.signed(value, bits: 14) }
            w.bits(UInt64(4 - 1), 4)   // coefficient precision 4
            w.signed(Int32(shift), bits: 5)
            for c in coefficients { w.signed(c, bits: 4) }
            w.bits(0, 2)   // 4-bit parameters
            w.bits(0, 4)   // one partition
            w.bits(0, 4)   // parameter 0
            for value in residuals { w.rice(value, parameter: 0) }
            frames.append(frame(w, blocksize: 64, sampleNumber: 100, rateCode: 13))
            var s = warmUp
            for r in residuals {
                let n = s.count
                let sum = coefficients[0] * s[n - 1] + coefficients[1] * s[n - 2] + coefficients[2] * s[n - 3]
                s.append(r + (sum >> Int32(shift)))
            }
            samples += s.map { $0 << 2 }
        }
        // Frame 3: 16 samples, verbatim.
        do {
            let values: [Int32] = (0..<16).map { Int32($0 * 1_000 - 8_000) }
            var w = BitWriter()
            w.subframeHeader(type: 1, wasted: 0)
            for value in values { w.signed(value, bits: 16) }
            frames.append(frame(w, blocksize: 16, sampleNumber: 164, rateCode: 0))
            samples += values
        }
        var file: [UInt8] = Array("fLaC".utf8)
        var info = BitWriter()
        info.bits(16, 16); info.bits(65_535, 16); info.bits(0, 24); info.bits(0, 24)
        info.bits(44_100, 20); info.bits(0, 3); info.bits(15, 5); info.bits(UInt64(samples.count), 36)
        for _ in 0..<16 { info.bits(0, 8) }
        file += [0x80, 0, 0, 34] + info.bytes
        for f in frames { file += f }
        return (file, samples)
    }

    /// A variable-block-size frame header (sample number coded), the subframe, padding, CRC-16.
    static func frame(_ subframe: BitWriter, blocksize: Int, sampleNumber: Int, rateCode: UInt64) -> [UInt8] {
        var w = BitWriter()
        w.bits(0b1111_1111_1111_10, 14); w.bits(0, 1); w.bits(1, 1)   // sync, variable blocks
        w.bits(7, 4); w.bits(rateCode, 4)                                // 16-bit block size follows
        w.bits(0, 4); w.bits(4, 3); w.bits(0, 1)                         // mono, 16 bits
        precondition(sampleNumber < 0x800)
        if sampleNumber < 0x80 { w.bits(UInt64(sampleNumber), 8) } else {
            w.bits(UInt64(0xc0 | sampleNumber >> 6), 8); w.bits(UInt64(0x80 | sampleNumber & 0x3f), 8)
        }
        w.bits(UInt64(blocksize - 1), 16)
        if rateCode == 13 { w.bits(44_100, 16) }
        w.bits(UInt64(crc8(w.bytes)), 8)
        var bytes = w.bytes + subframe.flushed
        let crc = FLACFrameReader.crc16(bytes, folded: false)
        bytes += [UInt8(crc >> 8), UInt8(crc & 0xff)]
        return bytes
    }

    static func crc8(_ bytes: [UInt8]) -> UInt8 {
        var crc: UInt8 = 0
        for byte in bytes {
            crc ^= byte
            for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x07 : crc << 1 }
        }
        return crc
    }

    /// MSB-first bits.
    struct BitWriter {
        var bytes: [UInt8] = []
        var pending: UInt64 = 0, count = 0
        mutating func bits(_ value: UInt64, _ n: Int) {
            for i in stride(from: n - 1, through: 0, by: -1) {
                pending = pending << 1 | (value >> UInt64(i) & 1)
                count += 1
                if count == 8 { bytes.append(UInt8(pending)); pending = 0; count = 0 }
            }
        }
        mutating func signed(_ value: Int32, bits n: Int) { bits(UInt64(UInt32(bitPattern: value)) & ((1 << UInt64(n)) - 1), n) }
        mutating func subframeHeader(type: UInt64, wasted: Int) {
            bits(0, 1); bits(type, 6)
            if wasted == 0 { bits(0, 1) } else { bits(1, 1); bits(0, wasted - 1); bits(1, 1) }
        }
        mutating func rice(_ value: Int32, parameter k: Int) {
            let folded = UInt64(value >= 0 ? 2 * Int64(value) : -2 * Int64(value) - 1)
            let high = folded >> UInt64(k)
            for _ in 0..<high { bits(0, 1) }
            bits(1, 1)
            if k > 0 { bits(folded & ((1 << UInt64(k)) - 1), k) }
        }
        /// The bytes with the last one padded by zeros.
        var flushed: [UInt8] {
            var copy = self
            if copy.count > 0 { copy.bits(0, 8 - copy.count) }
            return copy.bytes
        }
    }
}
