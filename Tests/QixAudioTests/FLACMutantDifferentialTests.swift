import CFLACFrame
import Foundation
import Testing
@testable import QixAudio
import QixTestSupport

/// The own frame decoder held to libFLAC on damaged files: seeded mutants of valid FLAC
/// files (bytes flipped inside frames, half of them with the frame's CRCs set again so the
/// damage reaches the subframes) must decode to the same samples, errors and failures
/// through the own decoder as through libFLAC alone.
struct FLACMutantDifferentialTests {
    /// Mutants per run (QIX_FLAC_MUTANTS overrides, for longer local runs).
    static let mutantCount = ProcessInfo.processInfo.environment["QIX_FLAC_MUTANTS"].flatMap(Int.init) ?? 5_000

    /// The valid files mutated: sample sizes, channel counts and encoder settings that reach
    /// fixed and LPC subframes, every stereo mode, wasted bits and escaped partitions.
    static let bases: [(bits: Int, channels: Int, options: [String])] = [
        (16, 2, ["-5", "-b", "1152"]), (24, 2, ["-8", "-b", "576"]), (8, 1, ["-0", "-b", "256"]),
        (16, 1, ["--lax", "-l", "32", "-b", "1024"]), (24, 1, ["-6", "-r", "8", "-b", "512"]),
    ]

    @Test func mutantsDecodeAsWithLibFLACAlone() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var files: [(bytes: [UInt8], frames: [Range<Int>], channels: Int)] = []
        for (index, base) in Self.bases.enumerated() {
            let raw = "\(dir)/in\(index).raw", path = "\(dir)/base\(index).flac"
            try Self.signal(bits: base.bits, channels: base.channels).write(to: URL(fileURLWithPath: raw))
            try FLACFrameReaderTests.encode(raw, to: path, bits: base.bits, channels: base.channels, options: base.options)
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let frames = try #require(Self.frameRanges(bytes, bits: base.bits, channels: base.channels))
            try #require(frames.count >= 4, "base \(index)")
            files.append((bytes, frames, base.channels))
        }

        var random = SplitMix64(seed: 20_261_127)
        var accepted = 0, disagreements: [String] = []
        let path = "\(dir)/mutant.flac"
        for mutant in 0..<Self.mutantCount {
            let file = files[Int(random.next() % UInt64(files.count))]
            var bytes = file.bytes
            let frame = file.frames[Int(random.next() % UInt64(file.frames.count))]
            for _ in 0...(random.next() % 3) {
                let at = frame.lowerBound + Int(random.next() % UInt64(frame.count))
                bytes[at] ^= UInt8(1 + random.next() % 255)
            }
            if random.next() % 2 == 0 { Self.setCRCs(&bytes, frame: frame) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let own = try FLACFrameReaderTests.decode(path, channels: file.channels, frames: .own)
            let reference = try FLACFrameReaderTests.decode(path, channels: file.channels, frames: .libFLAC)
            if own.handedOverAt == nil { accepted += 1 }
            if own.samples != reference.samples || own.streamError != reference.streamError || own.failed != reference.failed {
                disagreements.append("mutant \(mutant): \(FLACDecoderTests.firstDifference(own.samples, reference.samples) ?? "errors differ"), own hand-over at \(own.handedOverAt.map(String.init) ?? "none"), errors \(own.streamError ?? "none") / \(reference.streamError ?? "none")")
                // Kept for a closer look when QIX_FLAC_MUTANT_DUMP names a folder.
                if let dump = ProcessInfo.processInfo.environment["QIX_FLAC_MUTANT_DUMP"] {
                    try Data(bytes).write(to: URL(fileURLWithPath: "\(dump)/mutant\(mutant).flac"))
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(Self.mutantCount) mutants differ: \(disagreements.prefix(5))")
        // The mutants must reach both paths: some taken whole by the own decoder, most handed over.
        #expect(accepted > 0 && accepted < Self.mutantCount, "\(accepted) of \(Self.mutantCount) decoded without hand-over")
        print("FLAC mutant differential: \(Self.mutantCount) mutants, \(accepted) decoded whole by the own decoder, \(disagreements.count) disagreements")
    }

    /// Byte ranges of the frames of a valid file, found by decoding it with the own decoder.
    static func frameRanges(_ bytes: [UInt8], bits: Int, channels: Int) -> [Range<Int>]? {
        var at = 4
        while true {
            guard at + 4 <= bytes.count else { return nil }
            let last = bytes[at] & 0x80 != 0
            at += 4 + (Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]))
            if last { break }
        }
        var padded = bytes + [UInt8](repeating: 0, count: Int(QIX_FLAC_PADDING))
        var stream = qix_flac_stream_info(sample_rate: 44_100, channels: UInt32(channels), bits_per_sample: UInt32(bits))
        let planes = (0..<channels).map { _ in UnsafeMutablePointer<Int32>.allocate(capacity: 65_536) }
        defer { planes.forEach { $0.deallocate() } }
        var outputs: [UnsafeMutablePointer<Int32>?] = planes
        var ranges: [Range<Int>] = []
        while at < bytes.count {
            var header = qix_flac_frame_header()
            var consumed = 0
            let status = padded.withUnsafeMutableBufferPointer { buffer in
                qix_flac_decode_frame(buffer.baseAddress! + at, bytes.count - at, &stream, &outputs, 65_536, &header, &consumed)
            }
            guard status == QIX_FLAC_FRAME_OK else { return nil }
            ranges.append(at..<(at + consumed))
            at += consumed
        }
        padded.removeAll()
        return ranges
    }

    /// Sets a frame's header CRC-8 and frame CRC-16 to match its (mutated) bytes.
    static func setCRCs(_ bytes: inout [UInt8], frame: Range<Int>) {
        let header = Array(bytes[frame])
        if let length = FLACOverrangeTests.headerLength(header), length < header.count - 2 {
            bytes[frame.lowerBound + length] = FLACOverrangeTests.crc8(header[0..<length])
        }
        let crc = FLACFrameReader.crc16(Array(bytes[frame.lowerBound..<(frame.upperBound - 2)]), folded: false)
        bytes[frame.upperBound - 2] = UInt8(crc >> 8)
        bytes[frame.upperBound - 1] = UInt8(crc & 0xff)
    }

    /// 0.3 s of tone, noise and a coarse-grid stretch at 44.1 kHz, little-endian PCM.
    static func signal(bits: Int, channels: Int) -> Data {
        var random = SplitMix64(seed: UInt64(bits * 10 + channels))
        let top = Double(1 << (bits - 1)) - 1, frames = 13_230
        var bytes = Data(capacity: frames * channels * bits / 8)
        for i in 0..<frames {
            for c in 0..<channels {
                let t = Double(i) / 44_100
                var value = 0.45 * sin(2 * .pi * (330 + 220 * Double(c)) * t)
                if i > frames / 2 { value += Double(random.next() % 2001) / 2000 * 0.5 - 0.25 }
                var sample = Int32(max(-top - 1, min(top, (value * top).rounded())))
                if i > frames * 3 / 4 { sample &= ~7 }
                withUnsafeBytes(of: sample.littleEndian) { bytes.append(contentsOf: $0.prefix(bits / 8)) }
            }
        }
        return bytes
    }
}

