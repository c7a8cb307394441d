/// A streaming sample-rate converter of interleaved `Float` audio: blocks of any size in,
/// then one flush; the output lines up with the input (no delay).
public protocol SampleRateConverter: AnyObject {
    /// Converts one block of interleaved input, appending the frames produced to `output`.
    func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float])
    /// Converts one block given as one buffer per channel (all the same length), appending
    /// interleaved frames to `output`: for callers that hold their channels apart.
    func process(planar channels: [UnsafeBufferPointer<Float>], into output: inout [Float])
    /// Drains the filter at the end of the stream, appending the last frames to `output`.
    func flush(into output: inout [Float])
}

extension SampleRateConverter {
    /// Interleaves the channels and converts them as one block.
    public func process(planar channels: [UnsafeBufferPointer<Float>], into output: inout [Float]) {
        let count = channels.count, frames = channels.first?.count ?? 0
        guard frames > 0 else { return }
        var interleaved = [Float](repeating: 0, count: frames * count)
        for (c, channel) in channels.enumerated() {
            for i in 0..<frames { interleaved[i &* count &+ c] = channel[i] }
        }
        interleaved.withUnsafeBufferPointer { process($0, into: &output) }
    }
}

extension Resampler: SampleRateConverter {}

/// Converters to 16 kHz (or another lower rate) for analysis that reads only the band up to
/// `readBandEnd` Hz: a `PolyphaseResampler` per channel where the ratio allows, else soxr's
/// `analysis` filter; upsampling gets soxr's medium quality.
public enum AnalysisConversion {
    /// A converter of `channels` interleaved channels from `inputRate` to `outputRate`, or nil
    /// when the rates are equal. `attenuation` is the polyphase filter's stopband (dB).
    public static func converter(from inputRate: Int, to outputRate: Int, channels: Int,
                                 readBandEnd: Double, attenuation: Double = 60) throws -> SampleRateConverter? {
        try polyphaseOrSoxr(from: inputRate, to: outputRate, channels: channels, polyphase: inputRate > outputRate,
                            passbandEnd: readBandEnd, stopbandBegin: Double(outputRate) - readBandEnd,
                            attenuation: attenuation, soxr: inputRate > outputRate ? .analysis : .medium)
    }

    /// A converter up from `inputRate` for a signal that holds nothing above `bandEnd` Hz (the
    /// watermark embedder's delta), or nil when the rates are equal: a `PolyphaseResampler` per
    /// channel whose stopband begins at the band's first image, `inputRate - bandEnd`, where the
    /// ratio allows (24 taps from 16 to 44.1 kHz, against soxr's longer listening filters), else
    /// soxr's `analysis` filter. Down (an output rate under `inputRate`) it is soxr's medium
    /// quality, which keeps the whole output band.
    public static func bandLimitedConverter(from inputRate: Int, to outputRate: Int, channels: Int,
                                            bandEnd: Double, attenuation: Double = 72) throws -> SampleRateConverter? {
        try polyphaseOrSoxr(from: inputRate, to: outputRate, channels: channels, polyphase: inputRate < outputRate,
                            passbandEnd: bandEnd, stopbandBegin: Double(inputRate) - bandEnd,
                            attenuation: attenuation, soxr: inputRate < outputRate ? .analysis : .medium)
    }

    /// Nil for equal rates; else the polyphase filter when asked for and the ratio allows it,
    /// else soxr at `quality`.
    private static func polyphaseOrSoxr(from inputRate: Int, to outputRate: Int, channels: Int, polyphase: Bool,
                                        passbandEnd: Double, stopbandBegin: Double, attenuation: Double,
                                        soxr quality: Resampler.Quality) throws -> SampleRateConverter? {
        if inputRate == outputRate { return nil }
        if polyphase,
           let converter = InterleavedPolyphaseResampler(channels: channels, inputRate: inputRate, outputRate: outputRate,
                                                         passbandEnd: passbandEnd, stopbandBegin: stopbandBegin,
                                                         attenuation: attenuation) {
            return converter
        }
        return try Resampler(inputRate: Double(inputRate), outputRate: Double(outputRate), channels: channels,
                             quality: quality)
    }
}

/// One `PolyphaseResampler` per channel behind the interleaved `SampleRateConverter` interface:
/// one channel or two go through the filter loop together (`PolyphaseResampler.process(lockstep:)`,
/// written interleaved); more are converted one by one and interleaved.
final class InterleavedPolyphaseResampler: SampleRateConverter {
    private let channels: [PolyphaseResampler]
    /// Deinterleaved input, `frames` per channel back to back.
    private var split: [Float] = []
    /// Per-channel outputs, for more than two channels.
    private var outputs: [[Float]]

    /// Converters with the given band edges (see `PolyphaseResampler.init`); nil where
    /// `PolyphaseResampler` refuses the ratio or the edges.
    init?(channels count: Int, inputRate: Int, outputRate: Int, passbandEnd: Double, stopbandBegin: Double,
          attenuation: Double) {
        var made: [PolyphaseResampler] = []
        for _ in 0..<max(1, count) {
            guard let converter = PolyphaseResampler(inputRate: inputRate, outputRate: outputRate, passbandEnd: passbandEnd,
                                                     stopbandBegin: stopbandBegin, attenuation: attenuation) else { return nil }
            made.append(converter)
        }
        channels = made
        outputs = [[Float]](repeating: [], count: made.count)
    }

    func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) {
        let count = channels.count
        if count == 1 {
            channels[0].process(input, into: &output)
            return
        }
        let frames = input.count / count
        guard frames > 0 else { return }
        if split.count < frames * count { split = [Float](repeating: 0, count: frames * count) }
        split.withUnsafeMutableBufferPointer { planes in
            for c in 0..<count {
                for i in 0..<frames { planes[c &* frames &+ i] = input[i &* count &+ c] }
            }
        }
        split.withUnsafeBufferPointer { planes in
            process(planar: (0..<count).map { UnsafeBufferPointer(rebasing: planes[($0 * frames)..<(($0 + 1) * frames)]) },
                    into: &output)
        }
    }

    func flush(into output: inout [Float]) {
        if channels.count <= 2 {
            PolyphaseResampler.flush(lockstep: channels, into: &output)
            return
        }
        for c in channels.indices {
            outputs[c].removeAll(keepingCapacity: true)
            channels[c].flush(into: &outputs[c])
        }
        interleave(into: &output)
    }

    /// Converts each channel straight from its own buffer: no split.
    func process(planar input: [UnsafeBufferPointer<Float>], into output: inout [Float]) {
        precondition(input.count == channels.count, "one buffer per channel")
        guard let frames = input.first?.count, frames > 0 else { return }
        if channels.count <= 2 {
            PolyphaseResampler.process(lockstep: channels, input, into: &output)
            return
        }
        for c in channels.indices {
            outputs[c].removeAll(keepingCapacity: true)
            channels[c].process(input[c], into: &outputs[c])
        }
        interleave(into: &output)
    }

    /// Every channel's converter has produced the same number of samples (same input count).
    private func interleave(into output: inout [Float]) {
        let count = channels.count, frames = outputs[0].count
        let first = output.count
        output.appendZeros(frames * count)
        output.withUnsafeMutableBufferPointer { out in
            for c in 0..<count {
                outputs[c].withUnsafeBufferPointer { channel in
                    for i in 0..<frames { out[first &+ i &* count &+ c] = channel[i] }
                }
            }
        }
    }
}
