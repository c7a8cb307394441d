import Foundation
import QixAudio

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
    /// Scale of the watermark relative to the tuned default (1).
    public let strength: Double
    private let chips: [Float]

    /// Prepares an embedder; `strength` must be in (0, 5].
    public init(key: WatermarkKey, payload: WatermarkPayload, strength: Double = 1) throws {
        guard strength.isFinite, strength > 0, strength <= 5 else {
            throw WatermarkError("invalid strength", "--strength", "must be a number in (0, 5], got \(strength)")
        }
        self.key = key
        self.payload = payload
        self.strength = strength
        chips = WatermarkLayout(key: key).chips(for: payload, key: key)
    }

    /// The lowest host sample rate that can carry the 0.5-6 kHz band.
    public static let minimumSampleRate = 12_000

    /// Returns `buffer` with the watermark added to every channel.
    public func embed(_ buffer: AudioBuffer) throws -> AudioBuffer {
        var output = buffer
        try embed(into: &output)
        return output
    }

    /// Adds the watermark to every channel of `buffer` in place (no copy of the audio).
    public func embed(into buffer: inout AudioBuffer) throws {
        guard buffer.sampleRate >= Self.minimumSampleRate else {
            throw WatermarkError("cannot embed", "\(buffer.sampleRate) Hz",
                                 "the watermark band reaches 6 kHz, so the audio needs a sample rate of at least \(Self.minimumSampleRate) Hz")
        }
        let slotSeconds = Double(P.hopsPerSlot * P.hop) / Double(P.sampleRate)
        guard buffer.duration >= slotSeconds else {
            throw WatermarkError("cannot embed", "audio",
                                 "\(buffer.duration) s is shorter than one watermark symbol (\(slotSeconds) s)")
        }
        var bad = 0
        for value in buffer.samples where !value.isFinite { bad += 1 }
        guard bad == 0 else {
            throw WatermarkError("cannot embed", "audio", "\(bad) samples are NaN or infinite")
        }
        let targetSNR = P.targetSNR - 20 * log10(strength)
        // The detector's view (16 kHz mono mix) decides every tile's depth; each channel
        // then gets the same gains, so the mix carries exactly the planned change.
        let mix16 = try Self.convert(buffer.mixedToMono().samples, from: buffer.sampleRate, to: P.sampleRate)
        let chips = self.chips
        let gains = try TileDepths.depths(host: mix16, targetSNR: targetSNR) { probeGains in
            DeltaSynthesizer(chips: chips, gains: probeGains).delta(for: mix16)
        }
        let synthesis = DeltaSynthesizer(chips: chips, gains: gains)
        let frames = buffer.frameCount
        let channels = buffer.channels, rate = buffer.sampleRate
        // Whole-file arrays only at 16 kHz; host-rate audio moves through in blocks, which
        // keeps the peak memory and the page-fault time down for long files.
        let block = 65_536
        var scratch = [Float](repeating: 0, count: block)
        var converted: [Float] = []
        for c in 0..<channels {
            var internalRate: [Float]
            if channels == 1 {
                internalRate = mix16
            } else if rate == P.sampleRate {
                internalRate = buffer.channel(c)
            } else {
                let down = try Resampler(inputRate: Double(rate), outputRate: Double(P.sampleRate), channels: 1, quality: .medium)
                internalRate = []
                internalRate.reserveCapacity(mix16.count + 4096)
                var start = 0
                while start < frames {
                    let count = min(block, frames - start)
                    buffer.samples.withUnsafeBufferPointer { samples in
                        for i in 0..<count { scratch[i] = samples[(start + i) * channels + c] }
                    }
                    scratch.withUnsafeBufferPointer { down.process(UnsafeBufferPointer(rebasing: $0[0..<count]), into: &internalRate) }
                    start += count
                }
                down.flush(into: &internalRate)
            }
            let delta16 = synthesis.delta(for: internalRate)
            // Channel c was read above, before any delta is added to it.
            var written = 0
            func add(_ delta: [Float]) {
                let count = min(delta.count, frames - written)
                guard count > 0 else { return }
                buffer.samples.withUnsafeMutableBufferPointer { out in
                    for i in 0..<count { out[(written + i) * channels + c] += delta[i] }
                }
                written += count
            }
            if rate == P.sampleRate {
                add(delta16)
                continue
            }
            let up = try Resampler(inputRate: Double(P.sampleRate), outputRate: Double(rate), channels: 1, quality: .medium)
            var start = 0
            while start < delta16.count {
                let count = min(block, delta16.count - start)
                converted.removeAll(keepingCapacity: true)
                delta16.withUnsafeBufferPointer { up.process(UnsafeBufferPointer(rebasing: $0[start..<(start + count)]), into: &converted) }
                add(converted)
                start += count
            }
            converted.removeAll(keepingCapacity: true)
            up.flush(into: &converted)
            add(converted)
        }
    }

    /// Mono sample-rate conversion of a whole signal.
    static func convert(_ signal: [Float], from rate: Int, to target: Int) throws -> [Float] {
        if rate == target { return signal }
        let resampler = try Resampler(inputRate: Double(rate), outputRate: Double(target), channels: 1, quality: .medium)
        var output: [Float] = []
        output.reserveCapacity(Int(Double(signal.count) * Double(target) / Double(rate)) + 4096)
        resampler.process(signal, into: &output)
        resampler.flush(into: &output)
        return output
    }
}

/// Builds the watermark signal (the delta) for a 16 kHz signal: sqrt-Hann STFT at 50 %
/// overlap, each band bin scaled by +-depth per its tile's chip and half band, inverse
/// STFT with overlap-add (sqrt-Hann twice sums to one, so where the chip is constant the
/// delta is exactly +-depth times the host's band component).
struct DeltaSynthesizer {
    typealias P = WatermarkParameters
    let chips: [Float]
    /// Depth per (global slot, band) from `TileDepths`.
    let gains: [Float]

    /// Gain per bin is chip x (up half +1 / down half -1) x the tile's depth.
    func delta(for signal: [Float]) -> [Float] {
        let n = P.fftSize, hop = P.hop
        let count = signal.count
        var output = [Float](repeating: 0, count: count)
        let fft = RealFFT(size: n)
        var window = [Float](repeating: 0, count: n)
        for i in 0..<n { window[i] = Float(sin(Double.pi * Double(i) / Double(n))) }
        let frames = (count + hop - 1) / hop + 1
        let scale = 1 / Float(n)
        let slotCount = gains.count / P.bandCount
        // Per-bin gain pattern of one slot, rebuilt only when the slot changes.
        var gain = [Float](repeating: 0, count: P.endBin)
        var currentSlot = -1
        signal.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { y in
                for m in 0..<frames {
                    let globalSlot = min(m / P.hopsPerSlot, slotCount - 1)
                    let slot = globalSlot % P.slotsPerFrame
                    if globalSlot != currentSlot {
                        currentSlot = globalSlot
                        for band in 0..<P.bandCount {
                            let chip = chips[slot * P.bandCount + band] * scale * gains[globalSlot * P.bandCount + band]
                            let first = P.firstBin + 2 * P.binsPerHalfBand * band
                            for k in 0..<(2 * P.binsPerHalfBand) {
                                gain[first + k] = (k / P.binsPerGroup) % 2 == 0 ? chip : -chip
                            }
                        }
                    }
                    let start = m * hop - hop
                    var energy: Float = 0
                    for i in 0..<n {
                        let t = start + i
                        let v = (t >= 0 && t < count) ? x[t] * window[i] : 0
                        fft.input[i] = v
                        energy += v * v
                    }
                    if energy == 0 { continue }
                    fft.forward()
                    let spectrum = fft.spectrum
                    for k in 0..<P.firstBin { spectrum[2 * k] = 0; spectrum[2 * k + 1] = 0 }
                    for k in P.firstBin..<P.endBin {
                        spectrum[2 * k] *= gain[k]
                        spectrum[2 * k + 1] *= gain[k]
                    }
                    for k in P.endBin..<fft.binCount { spectrum[2 * k] = 0; spectrum[2 * k + 1] = 0 }
                    fft.inverse()
                    for i in 0..<n {
                        let t = start + i
                        if t >= 0 && t < count { y[t] += fft.input[i] * window[i] }
                    }
                }
            }
        }
        return output
    }
}
