import CSoxr

/// Streaming sample-rate conversion of interleaved `Float` audio, backed by libsoxr.
///
/// Feed blocks of any size with `process`, then call `flush` once at the end to drain
/// the filter's delay: the output then holds `round(inputFrames * outputRate / inputRate)`
/// frames, aligned with the input (soxr compensates its own latency).
public final class Resampler {
    /// Conversion quality; `.high` is soxr's HQ (20-bit, flat to 91 % of Nyquist).
    public enum Quality: Sendable {
        /// soxr's quick cubic interpolation: cheap, for previews.
        case quick
        /// soxr's medium quality (16-bit).
        case medium
        /// soxr's high quality (20-bit): the default.
        case high
        /// soxr's very high quality (28-bit).
        case veryHigh
        /// For analysis that reads only the lower 80 % of the output band (downsampling):
        /// soxr's 16-bit recipe flat to 80 % of the output's Nyquist, with what lies
        /// between 100 and 120 % of it allowed to fold back onto the unread 80-100 %. About
        /// 6 % of the watermark detector's time on 44.1 kHz input goes away.
        case analysis

        var recipe: UInt {
            switch self {
            case .quick: return UInt(SOXR_QQ)
            case .medium: return UInt(SOXR_MQ)
            case .high: return UInt(SOXR_HQ)
            case .veryHigh: return UInt(SOXR_VHQ)
            case .analysis: return UInt(SOXR_LQ)
            }
        }

        /// The soxr specification of this quality.
        var specification: soxr_quality_spec_t {
            var spec = soxr_quality_spec(recipe, 0)
            if self == .analysis {
                spec.passband_end = 0.8
                spec.stopband_begin = 1.2
            }
            return spec
        }
    }

    /// Input frames per second.
    public let inputRate: Double
    /// Output frames per second.
    public let outputRate: Double
    /// Interleaved channels.
    public let channels: Int

    private let soxr: soxr_t

    /// Makes a converter from `inputRate` to `outputRate` (any positive ratio, so also a
    /// speed change when the result is relabelled with the original rate).
    public init(inputRate: Double, outputRate: Double, channels: Int, quality: Quality = .high) throws {
        guard inputRate > 0, outputRate > 0, inputRate.isFinite, outputRate.isFinite else {
            throw AudioError("cannot resample", "rate", "rates must be positive, got \(inputRate) -> \(outputRate) Hz")
        }
        guard channels > 0 else { throw AudioError("cannot resample", "channels", "needs at least one channel") }
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channels = channels
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var q = quality.specification
        var error: soxr_error_t?
        guard let made = soxr_create(inputRate, outputRate, UInt32(channels), &error, &io, &q, nil), error == nil else {
            throw AudioError("cannot resample", "\(inputRate) -> \(outputRate) Hz",
                             error.map { String(cString: $0) } ?? "soxr refused the conversion")
        }
        soxr = made
    }

    deinit { soxr_delete(soxr) }

    /// Converts one block of interleaved input, appending the frames produced to `output`.
    public func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) {
        let frames = input.count / channels
        guard frames > 0 else { return }
        let room = Int((Double(frames) * outputRate / inputRate).rounded(.up)) + 64
        run(input: input.baseAddress, frames: frames, room: room, into: &output)
    }

    /// Converts an array block; see `process(_:into:)`.
    public func process(_ input: [Float], into output: inout [Float]) {
        input.withUnsafeBufferPointer { process($0, into: &output) }
    }

    /// Drains the filter at the end of the stream, appending the last frames to `output`.
    public func flush(into output: inout [Float]) {
        while true {
            let before = output.count
            run(input: nil, frames: 0, room: 4096, into: &output)
            if output.count == before { break }
        }
    }

    private func run(input: UnsafePointer<Float>?, frames: Int, room: Int, into output: inout [Float]) {
        let start = output.count
        output.appendZeros(room * channels)
        var consumed = 0, produced = 0
        output.withUnsafeMutableBufferPointer { buffer in
            let out = UnsafeMutableRawPointer(buffer.baseAddress! + start)
            _ = soxr_process(soxr, input, frames, &consumed, out, room, &produced)
        }
        output.removeLast((room - produced) * channels)
    }

    /// Converts a whole buffer to `rate` in one call.
    public static func resample(_ buffer: AudioBuffer, to rate: Int, quality: Quality = .high) throws -> AudioBuffer {
        if rate == buffer.sampleRate { return buffer }
        let resampler = try Resampler(inputRate: Double(buffer.sampleRate), outputRate: Double(rate),
                                      channels: buffer.channels, quality: quality)
        var output: [Float] = []
        output.reserveCapacity(Int(Double(buffer.samples.count) * Double(rate) / Double(buffer.sampleRate)) + 1024)
        resampler.process(buffer.samples, into: &output)
        resampler.flush(into: &output)
        return AudioBuffer(samples: output, channels: buffer.channels, sampleRate: rate)
    }

    /// Plays `buffer` `factor` times faster (1.03 = 3 % faster, shorter and higher in
    /// pitch, as a sped-up tape or broadcast), keeping its sample rate.
    public static func changeSpeed(_ buffer: AudioBuffer, by factor: Double, quality: Quality = .high) throws -> AudioBuffer {
        let resampler = try Resampler(inputRate: Double(buffer.sampleRate) * factor,
                                      outputRate: Double(buffer.sampleRate),
                                      channels: buffer.channels, quality: quality)
        var output: [Float] = []
        resampler.process(buffer.samples, into: &output)
        resampler.flush(into: &output)
        return AudioBuffer(samples: output, channels: buffer.channels, sampleRate: buffer.sampleRate)
    }
}
