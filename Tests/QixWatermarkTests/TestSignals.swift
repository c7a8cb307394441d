import Foundation
import QixAudio
import QixTestSupport
import QixWatermark

/// Deterministic host signals for the watermark tests.
enum TestSignals {
    /// A seeded uniform generator in [-1, 1).
    struct Noise {
        var state: UInt64
        mutating func next() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: state) >> 11) / Float(1 << 52)
        }
    }

    /// Plucked harmonic notes over a quiet noise bed: music-like, with onsets and tonal peaks.
    static func music(seconds: Double, rate: Int = 44_100, channels: Int = 2, seed: UInt64 = 1) -> AudioBuffer {
        let frames = Int(seconds * Double(rate))
        var noise = Noise(state: seed)
        var mono = [Float](repeating: 0, count: frames)
        let notes: [Double] = [220, 277.2, 329.6, 440, 392, 293.7, 349.2, 261.6]
        let noteFrames = Int(0.25 * Double(rate))
        for i in 0..<frames {
            let note = notes[(i / noteFrames) % notes.count]
            let t = Double(i % noteFrames) / Double(rate)
            let envelope = exp(-4 * t)
            var value = 0.0
            for h in 1...8 { value += sin(2 * .pi * note * Double(h) * Double(i) / Double(rate)) / Double(h) }
            mono[i] = Float(0.25 * envelope * value) + 0.02 * noise.next()
        }
        var samples = [Float](repeating: 0, count: frames * channels)
        for i in 0..<frames { for c in 0..<channels { samples[i * channels + c] = mono[i] * (c == 0 ? 1 : 0.8) } }
        return AudioBuffer(samples: samples, channels: channels, sampleRate: rate)
    }

    /// A corpus clip (corpus/clips/<prefix>*.flac), `seconds` long from `start`.
    static func corpus(_ prefix: String, start: Double = 0, seconds: Double = .infinity) throws -> AudioBuffer {
        let buffer = try AudioFileReader.readAll(path: QixTestSupport.TestSignals.corpusClip(prefix))
        let first = Int(start * Double(buffer.sampleRate))
        let count = seconds.isFinite ? Int(seconds * Double(buffer.sampleRate)) : buffer.frameCount - first
        return buffer.slice(frames: first..<(first + count))
    }

    /// 3 s of the a01 corpus clip, marked with `message` under `key` (or not), at 16 kHz mono
    /// under white noise `level` times its RMS: a capture near the detector's threshold.
    static func noisyExcerpt(key: WatermarkKey, message: UInt32, level: Float, marked: Bool = true,
                             format: WatermarkFormat = .current) throws -> AudioBuffer {
        let host = try corpus("a01", seconds: 8)
        let audio = marked ? try WatermarkEmbedder(key: key, payload: WatermarkPayload(message: message), format: format).embed(host) : host
        let mono = try Resampler.resample(audio.mixedToMono(), to: 16_000).slice(frames: 40_000..<88_000)
        var levels = SignalLevels()
        mono.samples.withUnsafeBufferPointer { levels.add($0) }
        let noise = noise(seconds: 3, rate: 16_000, level: level * Float(levels.rms * 3.squareRoot()))
        return AudioBuffer(samples: zip(mono.samples, noise.samples).map { $0 + $1 }, channels: 1, sampleRate: 16_000)
    }

    /// `onAir` among 19 other campaigns, as an app expects them (fixed, unrelated IDs).
    static func campaigns(onAir: UInt32) -> [UInt32] { [onAir] + (1...19).map { 0x9e37_79b9 &* UInt32($0) } }

    /// White noise at `level` RMS-ish amplitude.
    static func noise(seconds: Double, rate: Int, level: Float, seed: UInt64 = 3) -> AudioBuffer {
        var noise = Noise(state: seed)
        let samples = (0..<Int(seconds * Double(rate))).map { _ in level * noise.next() }
        return AudioBuffer(samples: samples, channels: 1, sampleRate: rate)
    }

    /// A loud bass line under three quiet, resolved tones in the watermark band, 16 kHz:
    /// the masking caps bind on it (the tones' bands stay at the resolved limit) while
    /// the SNR budget, set by the bass, is far from spent.
    static func bassUnderResolvedTones(seconds: Double = 6) -> AudioBuffer {
        let rate = 16_000
        let samples = (0..<Int(seconds * Double(rate))).map { i -> Float in
            let t = Float(i) / Float(rate)
            let tones = [1_000, 2_100, 3_300].map { sin(2 * Float.pi * Float($0) * t) }.reduce(0, +)
            return 0.5 * sin(2 * Float.pi * 110 * t) + 0.02 * tones
        }
        return AudioBuffer(samples: samples, channels: 1, sampleRate: rate)
    }
}
