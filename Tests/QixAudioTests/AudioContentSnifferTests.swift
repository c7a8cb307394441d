import Testing
@testable import QixAudio

/// The first bytes decide the decoder: FFmpeg's libraries for broadcast containers,
/// libsndfile for the rest, whatever the file is called.
@Suite("Content sniffing")
struct AudioContentSnifferTests {
    static func bytes(_ text: String, padTo count: Int = 64) -> [UInt8] {
        Array(text.utf8) + [UInt8](repeating: 0, count: max(0, count - text.utf8.count))
    }

    @Test("MP4, MPEG-TS, M2TS, ADTS, ID3+ADTS, AC-3, Matroska, AVI go to FFmpeg's libraries")
    func libavSignatures() {
        #expect(AudioContentSniffer.readsWithLibav([0, 0, 0, 0x20] + Self.bytes("ftypM4A ")))
        var ts = [UInt8](repeating: 0xFF, count: 188 * 3)
        for packet in 0..<3 { ts[packet * 188] = 0x47 }
        #expect(AudioContentSniffer.readsWithLibav(ts))
        var m2ts = [UInt8](repeating: 0, count: 192 * 3)
        for packet in 0..<3 { m2ts[packet * 192 + 4] = 0x47 }
        #expect(AudioContentSniffer.readsWithLibav(m2ts))
        #expect(AudioContentSniffer.readsWithLibav([0xFF, 0xF1, 0x50, 0x80]))           // ADTS, MPEG-4
        #expect(AudioContentSniffer.readsWithLibav([0xFF, 0xF9, 0x50, 0x80]))           // ADTS, MPEG-2
        #expect(AudioContentSniffer.readsWithLibav(Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 2] + [UInt8](repeating: 0, count: 2) + [0xFF, 0xF1, 0x50]))
        #expect(AudioContentSniffer.readsWithLibav([0x0B, 0x77, 0x12, 0x34]))
        #expect(AudioContentSniffer.readsWithLibav([0x1A, 0x45, 0xDF, 0xA3, 0x01]))
        #expect(AudioContentSniffer.readsWithLibav(Self.bytes("RIFF\u{0}\u{0}\u{0}\u{0}AVI LIST")))
    }

    @Test("WAV, AIFF, FLAC, Ogg, MP3 (with and without ID3), text and a lone 'G' stay with libsndfile")
    func libsndfileSignatures() {
        #expect(!AudioContentSniffer.readsWithLibav(Self.bytes("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ")))
        #expect(!AudioContentSniffer.readsWithLibav(Self.bytes("FORM\u{0}\u{0}\u{0}\u{0}AIFF")))
        #expect(!AudioContentSniffer.readsWithLibav(Self.bytes("fLaC")))
        #expect(!AudioContentSniffer.readsWithLibav(Self.bytes("OggS")))
        #expect(!AudioContentSniffer.readsWithLibav([0xFF, 0xFB, 0x90, 0x64]))          // MPEG-1 Layer III
        #expect(!AudioContentSniffer.readsWithLibav(Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 2] + [0, 0] + [0xFF, 0xFB, 0x90]))
        #expect(!AudioContentSniffer.readsWithLibav(Self.bytes("Good morning, this is a text file")))
    }
}
