import CAVFormat

/// Turns decoded frames (planar or packed, float or integer) into interleaved Float at the
/// stream's rate and channel count with libswresample.
///
/// A stream that changes its layout or rate midway (a broadcast switching programmes) is
/// converted back to what it started with, so a reader's `info` holds for the whole input.
final class LibavSampleConverter {
    /// Output rate and channels: the first frame's.
    let sampleRate: Int32
    let channels: Int32
    private var context: OpaquePointer?
    private var outputLayout = AVChannelLayout()
    private var inputLayout = AVChannelLayout()
    private var inputFormat: Int32 = -1
    private var inputRate: Int32 = 0

    /// Makes a converter to the first frame's rate and channel layout.
    init(first frame: UnsafePointer<AVFrame>) {
        sampleRate = frame.pointee.sample_rate
        channels = frame.pointee.ch_layout.nb_channels
        var layout = frame.pointee.ch_layout
        if av_channel_layout_copy(&outputLayout, &layout) < 0 { av_channel_layout_default(&outputLayout, channels) }
    }

    deinit {
        swr_free(&context)
        av_channel_layout_uninit(&outputLayout)
        av_channel_layout_uninit(&inputLayout)
    }

    /// Output frames `frame` can give at most (more when the rate changed midway).
    func maximumFrames(for frame: UnsafePointer<AVFrame>) -> Int {
        let inRate = max(1, Int(frame.pointee.sample_rate))
        return Int(frame.pointee.nb_samples) * Int(sampleRate) / inRate + 64
    }

    /// Converts `frame` into `output` (room for `capacity` frames); returns the frames written.
    func convert(_ frame: UnsafePointer<AVFrame>, into output: UnsafeMutablePointer<Float>, capacity: Int,
                 subject: String) throws -> Int {
        try configure(for: frame, subject: subject)
        var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt8.self)
        let input = UnsafeMutableRawPointer(frame.pointee.extended_data)?
            .assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        let got = swr_convert(context, &out, Int32(capacity), input, frame.pointee.nb_samples)
        guard got >= 0 else { throw LibavDecoder.failure(subject, "cannot convert samples", got) }
        return Int(got)
    }

    /// Sets libswresample up for the frame's format, layout and rate when they differ from the last.
    private func configure(for frame: UnsafePointer<AVFrame>, subject: String) throws {
        var layout = frame.pointee.ch_layout
        let same = context != nil && frame.pointee.format == inputFormat && frame.pointee.sample_rate == inputRate
            && av_channel_layout_compare(&layout, &inputLayout) == 0
        if same { return }
        swr_free(&context)
        av_channel_layout_uninit(&inputLayout)
        guard av_channel_layout_copy(&inputLayout, &layout) >= 0 else {
            throw AudioError("cannot read audio", subject, "out of memory converting samples")
        }
        inputFormat = frame.pointee.format
        inputRate = frame.pointee.sample_rate
        let made = swr_alloc_set_opts2(&context, &outputLayout, AV_SAMPLE_FMT_FLT, sampleRate,
                                       &inputLayout, AVSampleFormat(inputFormat), inputRate, 0, nil)
        guard made >= 0, swr_init(context) >= 0 else {
            swr_free(&context)
            throw AudioError("cannot read audio", subject,
                             "libswresample cannot convert \(inputLayout.nb_channels) channels at \(inputRate) Hz to \(channels) at \(sampleRate) Hz")
        }
    }
}
