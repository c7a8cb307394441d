import Foundation
import Testing
@testable import QixAudio
import QixTestSupport

/// QixKit's own FLAC frame decoder must give libFLAC's samples bit for bit on every kind of
/// stream the reference encoder writes, in both of its builds, and must hand a damaged
/// stream to libFLAC so that it decodes and fails exactly as with libFLAC alone.
struct FLACFrameReaderTests {
    /// Sample sizes and channel counts; flac encodes each with every option set below.
    static let shapes: [(bits: Int, channels: Int)] = [(16, 1), (16, 2), (24, 2), (8, 2), (16, 6), (24, 1)]
    /// Encoder settings that reach every part of the format: fixed predictors (-0), LPC up
    /// to order 12 (-8) and 32 (--lax -l 32), exhaustive coefficient precision (-p), blocks of
    /// 192 and 65 535 samples, partition order 8, stereo without mid/side.
    static let settings: [[String]] = [
        ["-0"], ["-5"], ["-8"], ["-8", "-p"], ["--lax", "-l", "32", "-b", "8192"],
        ["--lax", "-b", "192"], ["--lax", "-b", "65535"], ["-6", "-r", "8"], ["-5", "--no-mid-side"],
    ]

    @Test(arguments: 0..<shapes.count)
    func decodesLikeLibFLAC(shape: Int) throws {
        let (bits, channels) = Self.shapes[shape]
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let raw = "\(dir)/in.raw"
        try Self.testSignal(bits: bits, channels: channels).write(to: URL(fileURLWithPath: raw))
        for setting in Self.settings {
            let path = "\(dir)/out.flac"
            try Self.encode(raw, to: path, bits: bits, channels: channels, options: setting)
            let reference = try Self.decode(path, channels: channels, frames: .libFLAC)
            for frames in [FLACDecoder.Frames.own, .ownPortable] {
                let own = try Self.decode(path, channels: channels, frames: frames)
                let label = "\(bits) bit, \(channels) ch, \(setting.joined(separator: " ")), \(frames)"
                #expect(own.handedOverAt == nil, "\(label): handed over at byte \(own.handedOverAt ?? -1)")
                #expect(own.samples.count == reference.samples.count && own.samples.count == Self.frames * channels, "\(label)")
                #expect(FLACDecoderTests.firstDifference(own.samples, reference.samples) == nil, "\(label)")
            }
        }
    }

    @Test("a damaged frame and junk after the last one go to libFLAC, with libFLAC's results")
    func damagedStreamsGoToLibFLAC() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let raw = "\(dir)/in.raw", path = "\(dir)/whole.flac"
        try Self.testSignal(bits: 16, channels: 2).write(to: URL(fileURLWithPath: raw))
        try Self.encode(raw, to: path, bits: 16, channels: 2, options: ["-5"])
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))

        var damaged = whole
        damaged[whole.count * 3 / 5] ^= 0x5a
        var junk = whole
        junk.append(Data("TAG".utf8) + Data(repeating: 0x20, count: 125))
        for (name, data) in [("damaged", damaged), ("junk", junk)] {
            let file = "\(dir)/\(name).flac"
            try data.write(to: URL(fileURLWithPath: file))
            let reference = try Self.decode(file, channels: 2, frames: .libFLAC)
            let own = try Self.decode(file, channels: 2, frames: .own)
            #expect(own.handedOverAt != nil, "\(name)")
            #expect(FLACDecoderTests.firstDifference(own.samples, reference.samples) == nil, "\(name)")
            #expect(own.streamError == reference.streamError && own.failed == reference.failed, "\(name)")
        }
        // Either way every frame is delivered: libFLAC reports the damaged one and gives it
        // as silence (a recording keeps its length and its other marks).
        for name in ["damaged", "junk"] {
            #expect(try Self.decode("\(dir)/\(name).flac", channels: 2, frames: .own).samples.count == Self.frames * 2)
        }
        #expect(try Self.decode("\(dir)/damaged.flac", channels: 2, frames: .own).streamError == "frame CRC mismatch")
    }

    @Test("the folded CRC-16 equals the tables' at every length, and both give the check value")
    func crc16() {
        // CRC-16/BUYPASS (FLAC's frame CRC) of "123456789" is 0xFEE8.
        #expect(FLACFrameReader.crc16(Array("123456789".utf8), folded: true) == 0xFEE8)
        #expect(FLACFrameReader.crc16(Array("123456789".utf8), folded: false) == 0xFEE8)
        var state: UInt64 = 99
        let bytes = (0..<5_000).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for count in Array(0..<300) + [1_000, 4_999] {
            let prefix = Array(bytes[0..<count])
            #expect(FLACFrameReader.crc16(prefix, folded: true) == FLACFrameReader.crc16(prefix, folded: false), "\(count) bytes")
        }
    }

    static let frames = 70_000
    static let rate = 44_100

    /// Little-endian PCM with every subframe kind in it: a quiet tone (LPC), digital
    /// silence (constant), full-scale noise (verbatim), a tone on a coarse grid (wasted
    /// bits), and channels that differ (for the stereo decorrelation modes).
    static func testSignal(bits: Int, channels: Int) -> Data {
        var state: UInt64 = 12_345   // a linear congruential generator: the same noise every run
        let top = Double(1 << (bits - 1)) - 1
        var bytes = Data(capacity: frames * channels * bits / 8)
        for i in 0..<frames {
            for c in 0..<channels {
                let t = Double(i) / Double(rate)
                var value: Double
                switch i * 5 / frames {
                case 0: value = 0.4 * sin(2 * .pi * (440 + 110 * Double(c)) * t) + 0.05 * sin(2 * .pi * 3_100 * t)
                case 1: value = 0
                case 2:
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    value = Double(state >> 11) / Double(1 << 52) - 1
                case 3: value = (0.5 * sin(2 * .pi * 220 * t) * 16).rounded() / 16
                default: value = 0.3 * sin(2 * .pi * 660 * t + Double(c)) * (c == 0 ? 1 : 0.7)
                }
                var sample = Int32(max(-top - 1, min(top, (value * top).rounded())))
                if i * 5 / frames == 3 { sample &= ~15 }
                withUnsafeBytes(of: sample.littleEndian) { bytes.append(contentsOf: $0.prefix(bits / 8)) }
            }
        }
        return bytes
    }

    /// Runs the reference encoder on raw PCM; records an issue when it is not installed.
    static func encode(_ raw: String, to path: String, bits: Int, channels: Int, options: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["flac", "--silent", "--force", "--force-raw-format", "--endian=little", "--sign=signed",
                             "--channels=\(channels)", "--bps=\(bits)", "--sample-rate=\(rate)"] + options + ["-o", path, raw]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "flac \(options) failed: install the flac package (.ci/install-deps)")
    }

    /// Every sample of `path` as `FLACDecoder` delivers it, with how the decoding ended.
    static func decode(_ path: String, channels: Int, frames: FLACDecoder.Frames) throws
        -> (samples: [Float], handedOverAt: Int64?, streamError: String?, failed: Bool) {
        let decoder = try #require(FLACDecoder(path: path, channels: channels, frames: frames))
        var samples: [Float] = []
        var block = [Float](repeating: 0, count: 3_001 * channels)
        while true {
            let got = block.withUnsafeMutableBufferPointer { decoder.read(into: $0) }
            if got == 0 { break }
            samples.append(contentsOf: block[0..<(got * channels)])
        }
        return (samples, decoder.handedOverAt, decoder.streamError, decoder.failed)
    }
}
