import CSndFile

/// A file format QixKit writes, chosen from the output file's extension.
public enum AudioFileFormat: String, Sendable, CaseIterable {
    /// RIFF WAVE, PCM or float.
    case wav
    /// FLAC, lossless, 16 or 24 bit.
    case flac
    /// Ogg Vorbis.
    case ogg
    /// Ogg Opus (8, 12, 16, 24 or 48 kHz only).
    case opus
    /// MPEG-1/2 Layer III.
    case mp3

    /// The format for a path's extension (case-insensitive), or nil when unknown.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ext = path[path.index(after: dot)...].lowercased()
        switch ext {
        case "wav", "wave": self = .wav
        case "flac": self = .flac
        case "ogg", "oga": self = .ogg
        case "opus": self = .opus
        case "mp3": self = .mp3
        default: return nil
        }
    }

    /// True for formats that discard information.
    public var isLossy: Bool { self == .ogg || self == .opus || self == .mp3 }

    /// The sample rates the format can store, or nil for any.
    public var supportedSampleRates: [Int]? {
        switch self {
        case .opus: return [8000, 12000, 16000, 24000, 48000]
        case .mp3: return [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]
        default: return nil
        }
    }
}

/// How PCM samples are stored in a WAV or FLAC file.
public enum SampleEncoding: String, Sendable, CaseIterable {
    /// 16-bit integer.
    case pcm16
    /// 24-bit integer.
    case pcm24
    /// 32-bit float (WAV only).
    case float32

    var sfSubtype: Int32 {
        switch self {
        case .pcm16: return Int32(SF_FORMAT_PCM_16)
        case .pcm24: return Int32(SF_FORMAT_PCM_24)
        case .float32: return Int32(SF_FORMAT_FLOAT)
        }
    }
}
