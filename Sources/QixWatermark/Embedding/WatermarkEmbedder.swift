import Foundation
import QixDSP

/// Hides a 32-bit ID in audio: a keyed pattern of +-depth magnitude changes on STFT
/// tiles of a 16 kHz view of every channel, added back at the host rate.
///
/// The change in each bin is the host's own bin times +-depth, so the watermark sits
/// `20 log10(1/depth)` dB under the host in every band and frame it touches: loud
/// passages carry it, silence stays silent (the masking model, see docs/watermark.md).
/// The output has the input's rate, channel count and length.
public struct WatermarkEmbedder: Sendable {
    typealias P = WatermarkParameters
    /// The key that chooses the pattern.
    public let key: WatermarkKey
    /// The ID to hide.
    public let payload: WatermarkPayload
    /// Scale of the watermark relative to its profile's level (1): the SNR budget moves by
    /// 20 log10(strength) dB and every tile's masking cap by the same factor (up to a depth
    /// of 0.9), so hosts whose caps bind follow it too.
    public let strength: Double
    /// What the mark is tuned for (transparent `broadcast`, or louder `venue`).
    public let profile: WatermarkProfile
    /// The chip of every tile of a frame, for this key and ID.
    let chips: [Float]
    /// The format the mark is written in.
    public let format: WatermarkFormat
    /// How deep the masking model lets each tile go (the standard limits unless testing).
    public let masking: MaskingLimits

    /// Prepares an embedder; `strength` must be in (0, 5]. `format` is the current one
    /// unless older detectors must read the mark (format 1 reads with every release);
    /// `masking` other than `.standard` is for robustness experiments and listening tests.
    public init(key: WatermarkKey, payload: WatermarkPayload, strength: Double = 1, profile: WatermarkProfile = .broadcast,
                format: WatermarkFormat = .current, masking: MaskingLimits = .standard) throws {
        guard strength.isFinite, strength > 0, strength <= 5 else {
            throw WatermarkError("invalid strength", parameter: "strength", "must be a number in (0, 5], got \(strength)")
        }
        self.key = key
        self.payload = payload
        self.strength = strength
        self.profile = profile
        self.format = format
        self.masking = masking
        chips = WatermarkLayout(key: key, format: format).chips(for: payload, key: key)
    }

    /// The lowest host sample rate that can carry the 0.5-6 kHz band.
    public static let minimumSampleRate = 12_000

    /// The mark's amplitude relative to the tuned limits: the profile's level times the strength.
    var scale: Double { strength * profile.level }

    /// Host-to-watermark energy ratio aimed at, dB: the tuned budget shifted by the scale.
    var targetSNR: Double { P.targetSNR - 20 * log10(scale) }

    /// Returns `buffer` with the watermark added to every channel.
    public func embed(_ buffer: AudioBuffer) throws -> AudioBuffer {
        var output = buffer
        try embed(into: &output)
        return output
    }

    /// Adds the watermark to every channel of `buffer` in place (no copy of the audio),
    /// through the same block-wise pipeline as files; unusable audio is refused before
    /// anything changes.
    public func embed(into buffer: inout AudioBuffer) throws {
        let stream = try StreamingEmbedder(embedder: self, sampleRate: buffer.sampleRate, channels: buffer.channels)
        var bad = 0
        var peak: Float = 0
        for value in buffer.samples {
            if value.isFinite { peak = max(peak, abs(value)) } else { bad += 1 }
        }
        try StreamingEmbedder.check(frames: buffer.frameCount, sampleRate: buffer.sampleRate, nonFinite: bad, peak: peak)
        let block = 65_536 * buffer.channels
        try buffer.samples.withUnsafeMutableBufferPointer { all in
            // Marked frames come back in order and never ahead of what was fed, so they
            // can overwrite the buffer behind the read position.
            var written = 0
            let write = { (marked: UnsafeBufferPointer<Float>) in
                for i in 0..<marked.count { all[written + i] = marked[i] }
                written += marked.count
            }
            var start = 0
            while start < all.count {
                let end = min(all.count, start + block)
                try stream.feed(UnsafeBufferPointer(rebasing: all[start..<end]), output: write)
                start = end
            }
            try stream.finish(output: write)
        }
    }

    /// Reads `source` (a file reader, a pipe, a generator) to its end and hands the marked
    /// audio, in order and in blocks, to `output` (a file writer's `write`), in bounded
    /// memory; returns what it read and added (the input's levels, the watermark's SNR).
    @discardableResult
    public func embed(from source: some AudioBlockSource,
                      output: (UnsafeBufferPointer<Float>) throws -> Void) throws -> EmbeddingReport {
        let stream = try StreamingEmbedder(embedder: self, sampleRate: source.sampleRate, channels: source.channels)
        try source.forEachBlock { try stream.feed($0, output: output) }
        try stream.finish(output: output)
        return stream.report
    }
}
