import Foundation
import Testing
@testable import QixAudio
import QixTestSupport

/// Frames whose CRCs are intact but whose samples leave the stream's bit depth: libFLAC
/// rejects them, so the own frame decoder must refuse them and hand the stream over, and
/// every file must decode exactly as with libFLAC alone.
struct FLACOverrangeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
    static let fuzzCorpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/flac_frame/corpus").path

    /// 24-bit left/side frames whose right channel leaves 24 bits: libFLAC decodes none of
    /// them, and the reader says the file is damaged instead of giving +9.5 dBFS.
    @Test func overrange24BitFramesAreRefused() throws {
        let path = "\(Self.fixtures)/flac_overrange24_crc_valid.flac"
        let own = try FLACFrameReaderTests.decode(path, channels: 2, frames: .own)
        let reference = try FLACFrameReaderTests.decode(path, channels: 2, frames: .libFLAC)
        #expect(own.handedOverAt != nil)
        #expect(own.samples == reference.samples && own.streamError == reference.streamError && own.failed == reference.failed)
        #expect(own.samples.allSatisfy { abs($0) <= 1 })
        let error = #expect(throws: AudioError.self) { try AudioFileReader.readAll(path: path) }
        #expect(error?.reason.contains("damaged file") == true, "\(error?.description ?? "")")
    }

    /// A mutant of a 16-bit mono recording whose frame 12 peaks at +37 dBFS when decoded
    /// past its bit depth; libFLAC's result peaks at -4.7 dBFS (the file is cut to frames
    /// 0-14 of the fuzzer's mutant).
    @Test func mutantFrameGivesLibFLACsSamples() throws {
        let path = "\(Self.fixtures)/flac_mutant_B_m0056_frames0-14.flac"
        let own = try FLACFrameReaderTests.decode(path, channels: 1, frames: .own)
        let reference = try FLACFrameReaderTests.decode(path, channels: 1, frames: .libFLAC)
        #expect(own.handedOverAt != nil, "frame 12 goes to libFLAC")
        #expect(FLACDecoderTests.firstDifference(own.samples, reference.samples) == nil)
        #expect(own.samples.count == reference.samples.count)
        let peak = own.samples.map(abs).max() ?? 0
        #expect(peak <= 1, "peak \(peak)")
    }

    /// libFuzzer inputs (Tests/Fuzz/flac_frame's format: stream settings, then a frame whose
    /// sync and CRCs the harness sets) on which the own decoder accepted frames libFLAC rejects.
    @Test(arguments: ["regression_own_accepts_overrange_frame", "finding_own_accepts_libflac_rejects"])
    func fuzzerFindingsDecodeLikeLibFLAC(name: String) throws {
        let input = Array(try Data(contentsOf: URL(fileURLWithPath: "\(Self.fuzzCorpus)/\(name)")))
        let (stream, channels) = try #require(Self.harnessStream(input))
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/frame.flac"
        try Data(stream).write(to: URL(fileURLWithPath: path))
        let own = try FLACFrameReaderTests.decode(path, channels: channels, frames: .own)
        let reference = try FLACFrameReaderTests.decode(path, channels: channels, frames: .libFLAC)
        #expect(own.samples == reference.samples, "\(own.samples.count) vs \(reference.samples.count) samples")
        #expect(own.streamError == reference.streamError)
    }

    /// The FLAC stream the fuzz harness builds from an input (FLACFrameFuzz.c): "fLaC", a
    /// STREAMINFO from the first four bytes, then the frame with its sync and CRCs set.
    static func harnessStream(_ input: [UInt8]) -> (stream: [UInt8], channels: Int)? {
        guard input.count >= 20 else { return nil }
        let bits = 4 + Int(input[0]) % 21, channels = 1 + Int(input[1]) % 8
        let rate = 1000 + ((Int(input[2]) << 8 | Int(input[3])) * 7) % 190_000
        var info = [UInt8](repeating: 0, count: 34)
        info[1] = 0x10; info[2] = 0xff; info[3] = 0xff
        info[10] = UInt8(rate >> 12)
        info[11] = UInt8((rate >> 4) & 0xff)
        info[12] = UInt8((rate & 15) << 4 | (channels - 1) << 1 | (bits - 1) >> 4)
        info[13] = UInt8(((bits - 1) & 15) << 4)
        var frame = Array(input[4...])
        frame[0] = 0xff
        frame[1] = 0xf8 | (frame[1] & 1)
        if let header = headerLength(frame), header < frame.count { frame[header] = crc8(frame[0..<header]) }
        let crc = FLACFrameReader.crc16(Array(frame[0..<(frame.count - 2)]), folded: false)
        frame[frame.count - 2] = UInt8(crc >> 8)
        frame[frame.count - 1] = UInt8(crc & 0xff)
        return (Array("fLaC".utf8) + [0x80, 0, 0, 34] + info + frame, channels)
    }

    /// A frame header's length up to its CRC-8 (RFC 9639 section 9.1).
    static func headerLength(_ f: [UInt8]) -> Int? {
        guard f.count >= 16 else { return nil }
        let sizeCode = f[2] >> 4, rateCode = f[2] & 15, lead = f[4]
        let extra: Int
        switch lead {
        case 0..<0x80: extra = 0
        case 0xc0..<0xe0: extra = 1
        case 0xe0..<0xf0: extra = 2
        case 0xf0..<0xf8: extra = 3
        case 0xf8..<0xfc: extra = 4
        case 0xfc..<0xfe: extra = 5
        case 0xfe: extra = 6
        default: return nil
        }
        return 5 + extra + (sizeCode == 6 ? 1 : sizeCode == 7 ? 2 : 0) + (rateCode == 12 ? 1 : (rateCode == 13 || rateCode == 14) ? 2 : 0)
    }

    /// FLAC's header CRC-8 (polynomial 0x07).
    static func crc8(_ bytes: ArraySlice<UInt8>) -> UInt8 {
        var crc: UInt8 = 0
        for byte in bytes {
            crc ^= byte
            for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x07 : crc << 1 }
        }
        return crc
    }
}
