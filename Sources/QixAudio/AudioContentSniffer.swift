/// Decides from an input's first bytes, never its name, which library reads it: FFmpeg's
/// for the broadcast containers and codecs libsndfile does not know, libsndfile (and the
/// own FLAC decoder) for everything else. Content libsndfile then fails to recognise is
/// offered to FFmpeg's probing as a last resort.
enum AudioContentSniffer {
    /// The bytes `readsWithLibav` looks at: enough for two MPEG-TS packets and an ID3 tag's header.
    static let prefixLength = 4096

    /// True for MP4/M4A/MOV, MPEG-TS and M2TS, ADTS and LOAS AAC, AC-3 and E-AC-3,
    /// Matroska/WebM, AVI, MPEG program streams, and ADTS behind an ID3 tag.
    static func readsWithLibav(_ bytes: [UInt8]) -> Bool {
        if bytes.count >= 10, bytes.starts(with: Array("ID3".utf8)) {
            // An ID3v2 tag before ADTS frames (raw .aac from some encoders); its size is syncsafe.
            let size = bytes[6...9].reduce(0) { ($0 << 7) | Int($1 & 0x7F) }
            let footer = bytes[5] & 0x10 != 0 ? 10 : 0
            let start = 10 + size + footer
            return start + 2 <= bytes.count && isADTS(bytes, at: start)
        }
        return isMP4(bytes) || isTransportStream(bytes) || isADTS(bytes, at: 0) || isLOAS(bytes)
            || isAC3(bytes) || isMatroska(bytes) || isAVI(bytes) || isProgramStream(bytes)
    }

    /// MPEG audio (MP3, MP2), bare or behind an ID3 tag: the files libmpg123 opens under libsndfile.
    static func isMPEGAudio(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: Array("ID3".utf8)) { return true }
        return bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0 && bytes[1] & 0x06 != 0
    }

    /// ISO base media: a box type at offset 4 that only MP4 family files start with.
    static func isMP4(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8 else { return false }
        let type = String(decoding: bytes[4..<8], as: UTF8.self)
        return ["ftyp", "moov", "mdat", "free", "wide", "skip", "pnot"].contains(type)
    }

    /// MPEG-TS (188-byte packets) or M2TS/BDAV (192 bytes: a 4-byte time code, then the packet),
    /// with the 0x47 sync byte seen at the start of three consecutive packets (two in a short input).
    static func isTransportStream(_ bytes: [UInt8]) -> Bool {
        for (offset, stride) in [(0, 188), (4, 192)] {
            let positions = Array(Swift.stride(from: offset, to: min(bytes.count, offset + 3 * stride), by: stride))
            if positions.count >= 2, positions.allSatisfy({ bytes[$0] == 0x47 }) { return true }
        }
        return false
    }

    /// An ADTS header: 12-bit sync 0xFFF with layer bits 00 (MPEG audio files have layer 1-3 there).
    static func isADTS(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset + 1 < bytes.count else { return false }
        return bytes[offset] == 0xFF && bytes[offset + 1] & 0xF6 == 0xF0
    }

    /// LOAS/LATM AAC, as carried in DVB: an 11-bit sync 0x2B7.
    static func isLOAS(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == 0x56 && bytes[1] & 0xE0 == 0xE0
    }

    /// AC-3 and E-AC-3 sync frames start 0x0B77.
    static func isAC3(_ bytes: [UInt8]) -> Bool { bytes.count >= 2 && bytes[0] == 0x0B && bytes[1] == 0x77 }

    /// EBML header of Matroska and WebM.
    static func isMatroska(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) }

    /// RIFF with form type "AVI " (a RIFF "WAVE" stays with libsndfile).
    static func isAVI(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("AVI ".utf8)
    }

    /// MPEG program stream (VOB, broadcast .mpg): a pack start code.
    static func isProgramStream(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0x00, 0x00, 0x01, 0xBA]) }
}
