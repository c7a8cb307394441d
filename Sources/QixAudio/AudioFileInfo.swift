import CSndFile

/// What an audio file holds: container, sample coding, rate, channels and length.
public struct AudioFileInfo: Sendable, Equatable {
    /// The path the file was opened with (`-` for standard input).
    public var path: String
    /// The container, in libsndfile's words ("WAV", "FLAC", "OGG", "MPEG", ...), or for inputs
    /// FFmpeg's libraries read "MP4", "ADTS", "MPEGTS", "AC3", "MATROSKA", ...
    public var container: String
    /// The sample coding ("PCM_16", "PCM_24", "FLOAT", "VORBIS", "OPUS", "MP3", ...; "AAC_LC",
    /// "AAC_HE", "AC3", "MP2", ... for inputs FFmpeg's libraries read).
    public var encoding: String
    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels per frame.
    public var channels: Int
    /// Length in frames.
    public var frames: Int64
    /// The index of the stream read among the container's streams (0 for single-stream files).
    public var stream: Int = 0
    /// How many streams the container holds (video, subtitles and other audio included).
    public var streams: Int = 1

    /// Length in seconds.
    public var duration: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }

    /// Bytes per stored sample of uncompressed PCM and float codings; nil for compressed ones.
    public var bytesPerSample: Int? {
        switch encoding {
        case "PCM_S8", "PCM_U8", "ULAW", "ALAW": return 1
        case "PCM_16": return 2
        case "PCM_24": return 3
        case "PCM_32", "FLOAT": return 4
        case "DOUBLE": return 8
        default: return nil
        }
    }

    /// True when samples are stored as floating point (and so may exceed full scale).
    public var isFloat: Bool { encoding == "FLOAT" || encoding == "DOUBLE" }

    /// Makes a description from its parts.
    public init(path: String, container: String, encoding: String, sampleRate: Int,
                channels: Int, frames: Int64) {
        self.path = path
        self.container = container
        self.encoding = encoding
        self.sampleRate = sampleRate
        self.channels = channels
        self.frames = frames
    }

    init(path: String, sfInfo: SF_INFO) {
        let format = Int(sfInfo.format)
        self.init(
            path: path,
            container: Self.containerName(format & Int(SF_FORMAT_TYPEMASK)),
            encoding: Self.encodingName(format & Int(SF_FORMAT_SUBMASK)),
            sampleRate: Int(sfInfo.samplerate),
            channels: Int(sfInfo.channels),
            frames: Int64(sfInfo.frames))
    }

    static func containerName(_ major: Int) -> String {
        switch major {
        case Int(SF_FORMAT_WAV): return "WAV"
        case Int(SF_FORMAT_WAVEX): return "WAVEX"
        case Int(SF_FORMAT_RF64): return "RF64"
        case Int(SF_FORMAT_W64): return "W64"
        case Int(SF_FORMAT_AIFF): return "AIFF"
        case Int(SF_FORMAT_AU): return "AU"
        case Int(SF_FORMAT_CAF): return "CAF"
        case Int(SF_FORMAT_FLAC): return "FLAC"
        case Int(SF_FORMAT_OGG): return "OGG"
        case Int(SF_FORMAT_MPEG): return "MPEG"
        case Int(SF_FORMAT_RAW): return "RAW"
        default:
            var info = SF_FORMAT_INFO()
            info.format = Int32(major)
            guard sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
                  let extensionName = info.extension else { return "UNKNOWN" }
            return String(cString: extensionName).uppercased()
        }
    }

    static func encodingName(_ sub: Int) -> String {
        switch sub {
        case Int(SF_FORMAT_PCM_S8): return "PCM_S8"
        case Int(SF_FORMAT_PCM_U8): return "PCM_U8"
        case Int(SF_FORMAT_PCM_16): return "PCM_16"
        case Int(SF_FORMAT_PCM_24): return "PCM_24"
        case Int(SF_FORMAT_PCM_32): return "PCM_32"
        case Int(SF_FORMAT_FLOAT): return "FLOAT"
        case Int(SF_FORMAT_DOUBLE): return "DOUBLE"
        case Int(SF_FORMAT_ULAW): return "ULAW"
        case Int(SF_FORMAT_ALAW): return "ALAW"
        case Int(SF_FORMAT_VORBIS): return "VORBIS"
        case Int(SF_FORMAT_OPUS): return "OPUS"
        case Int(SF_FORMAT_MPEG_LAYER_I): return "MP1"
        case Int(SF_FORMAT_MPEG_LAYER_II): return "MP2"
        case Int(SF_FORMAT_MPEG_LAYER_III): return "MP3"
        case Int(SF_FORMAT_IMA_ADPCM): return "IMA_ADPCM"
        case Int(SF_FORMAT_MS_ADPCM): return "MS_ADPCM"
        case Int(SF_FORMAT_GSM610): return "GSM610"
        default: return "CODEC_\(String(sub, radix: 16))"
        }
    }
}
