import CAVFormat

/// How an FFmpeg input is described to users: container, codec and profile, the stream
/// read, the length, and the errors, in the terms `qix info` and the CLI's errors use.
extension LibavDecoder {
    /// The reader's `info` for the chosen stream, and the length the container states
    /// when it states one (read from an index, not estimated from the bitrate).
    static func describe(_ format: UnsafeMutablePointer<AVFormatContext>, stream index: Int,
                         codec: UnsafeMutablePointer<AVCodecContext>, path: String,
                         sampleRate: Int, channels: Int) -> (AudioFileInfo, Int64?) {
        var declared: Int64?
        var estimated: Int64 = 0
        // A damaged header can state any duration and time base: a length that does not fit
        // in frames is no length.
        if let stream = format.pointee.streams?[index], stream.pointee.duration > 0 {
            let base = stream.pointee.time_base
            declared = rescaled(stream.pointee.duration, Int64(base.num) * Int64(sampleRate), Int64(base.den))
        }
        if format.pointee.duration > 0 {
            estimated = rescaled(format.pointee.duration, Int64(sampleRate), Int64(AV_TIME_BASE)) ?? 0
        }
        // Durations guessed from the bitrate (ADTS) or from timestamps (MPEG-TS) are no
        // index: a cut there cannot be measured against them.
        if av_fmt_ctx_get_duration_estimation_method(format) != AVFMT_DURATION_FROM_STREAM { declared = nil }
        var info = AudioFileInfo(path: path, container: containerName(format), encoding: encodingName(codec),
                                 sampleRate: sampleRate, channels: channels, frames: declared ?? estimated)
        info.stream = index
        info.streams = Int(format.pointee.nb_streams)
        return (info, declared)
    }

    /// `value * numerator / denominator`, rounded down, through FFmpeg's `av_rescale_rnd`
    /// (a 128-bit product, so no intermediate overflows: the fuzzer's MP3 stated a duration
    /// that did); nil when it refuses (a negative operand, a denominator that is not
    /// positive, a result that does not fit) or the value is negative.
    static func rescaled(_ value: Int64, _ numerator: Int64, _ denominator: Int64) -> Int64? {
        guard value >= 0 else { return nil }
        let frames = av_rescale_rnd(value, numerator, denominator, AV_ROUND_DOWN)
        return frames >= 0 ? frames : nil
    }

    /// The container in capitals: MP4 for the QuickTime family, ADTS for raw AAC, else
    /// FFmpeg's first name for the format (MPEGTS, AC3, MATROSKA, ...).
    static func containerName(_ format: UnsafeMutablePointer<AVFormatContext>) -> String {
        guard let input = format.pointee.iformat, let names = input.pointee.name else { return "UNKNOWN" }
        let first = String(cString: names).split(separator: ",").first.map(String.init) ?? ""
        switch first {
        case "mov": return "MP4"
        case "aac": return "ADTS"
        case "mp3": return "MPEG"
        default: return first.uppercased()
        }
    }

    /// The codec in capitals, with AAC's profile: AAC_LC, AAC_HE, AAC_HE_V2, AC3, EAC3, MP2, ...
    static func encodingName(_ codec: UnsafeMutablePointer<AVCodecContext>) -> String {
        let name = codecName(codec.pointee.codec_id)
        guard codec.pointee.codec_id == AV_CODEC_ID_AAC else { return name }
        switch codec.pointee.profile {
        case FF_PROFILE_AAC_LOW: return "AAC_LC"
        case FF_PROFILE_AAC_HE: return "AAC_HE"
        case FF_PROFILE_AAC_HE_V2: return "AAC_HE_V2"
        case FF_PROFILE_AAC_LD: return "AAC_LD"
        case FF_PROFILE_AAC_ELD: return "AAC_ELD"
        case FF_PROFILE_AAC_MAIN: return "AAC_MAIN"
        default: return name
        }
    }

    /// FFmpeg's short codec name in capitals ("AAC", "AC3", "MP2").
    static func codecName(_ id: AVCodecID) -> String { String(cString: avcodec_get_name(id)).uppercased() }

    /// FFmpeg's text for an error code.
    static func errorText(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        _ = buffer.withUnsafeMutableBufferPointer { av_strerror(code, $0.baseAddress, $0.count) }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A one-line error: what failed, FFmpeg's reason, and the last line it logged.
    static func failure(_ path: String, _ what: String, _ code: Int32) -> AudioError {
        var reason = what + ": " + errorText(code).lowercased()
        if let logged = LibavLog.take(), !logged.isEmpty { reason += " (\(logged))" }
        if reason.contains("moov atom not found") {
            reason += "; an MP4 without its index, as when a recording is cut before it was finished"
        }
        return AudioError("cannot read audio", path, reason)
    }
}
