/// A streaming sample-rate converter of interleaved `Float` audio: blocks of any size in,
/// then one flush; the output lines up with the input (no delay).
public protocol SampleRateConverter: AnyObject {
    /// Converts one block of interleaved input, appending the frames produced to `output`.
    func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float])
    /// Drains the filter at the end of the stream, appending the last frames to `output`.
    func flush(into output: inout [Float])
}

extension Resampler: SampleRateConverter {}

/// Converters to 16 kHz (or another lower rate) for analysis that reads only the band up to
/// `readBandEnd` Hz: a `PolyphaseDecimator` per channel where the ratio allows, else soxr's
/// `analysis` filter; upsampling gets soxr's medium quality.
public enum AnalysisConversion {
    /// A converter of `channels` interleaved channels from `inputRate` to `outputRate`, or nil
    /// when the rates are equal. `attenuation` is the decimator's stopband (dB).
    public static func converter(from inputRate: Int, to outputRate: Int, channels: Int,
                                 readBandEnd: Double, attenuation: Double = 60) throws -> SampleRateConverter? {
        if inputRate == outputRate { return nil }
        if inputRate > outputRate,
           let decimator = InterleavedDecimator(channels: channels, inputRate: inputRate, outputRate: outputRate,
                                                readBandEnd: readBandEnd, attenuation: attenuation) {
            return decimator
        }
        return try Resampler(inputRate: Double(inputRate), outputRate: Double(outputRate), channels: channels,
                             quality: inputRate > outputRate ? .analysis : .medium)
    }
}

/// One `PolyphaseDecimator` per channel behind the interleaved `SampleRateConverter` interface:
/// each block is split into channels, decimated, and interleaved again.
final class InterleavedDecimator: SampleRateConverter {
    private let channels: [PolyphaseDecimator]
    private var split: [Float] = []
    private var outputs: [[Float]]

    /// Decimators that keep the band to `readBandEnd` and let what lies between the output's
    /// Nyquist and `outputRate - readBandEnd` fold onto the unread top; nil where
    /// `PolyphaseDecimator` refuses the ratio.
    init?(channels count: Int, inputRate: Int, outputRate: Int, readBandEnd: Double, attenuation: Double) {
        var made: [PolyphaseDecimator] = []
        for _ in 0..<max(1, count) {
            guard let decimator = PolyphaseDecimator(inputRate: inputRate, outputRate: outputRate, passbandEnd: readBandEnd,
                                                     stopbandBegin: Double(outputRate) - readBandEnd,
                                                     attenuation: attenuation) else { return nil }
            made.append(decimator)
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
        if split.count < frames { split = [Float](repeating: 0, count: frames) }
        for c in 0..<count {
            split.withUnsafeMutableBufferPointer { channel in
                for i in 0..<frames { channel[i] = input[i &* count &+ c] }
            }
            outputs[c].removeAll(keepingCapacity: true)
            split.withUnsafeBufferPointer { channels[c].process(UnsafeBufferPointer(rebasing: $0[0..<frames]), into: &outputs[c]) }
        }
        interleave(into: &output)
    }

    func flush(into output: inout [Float]) {
        if channels.count == 1 {
            channels[0].flush(into: &output)
            return
        }
        for c in channels.indices {
            outputs[c].removeAll(keepingCapacity: true)
            channels[c].flush(into: &outputs[c])
        }
        interleave(into: &output)
    }

    /// Every channel's decimator has produced the same number of samples (same input count).
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
