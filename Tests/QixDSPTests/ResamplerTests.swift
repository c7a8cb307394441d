import Foundation
import Testing
import QixDSP
import QixTestSupport

/// libsoxr conversion quality through the QixAudio wrapper.
@Suite("Resampling")
struct ResamplerTests {
    /// Amplitude of bin `k` and the strongest other bin of an unwindowed FFT over exactly
    /// `samples.count` samples: with a whole number of cycles there is no leakage, so
    /// every other bin is a spur.
    static func toneAndSpur(_ samples: ArraySlice<Float>, bin k: Int) -> (tone: Double, spur: Double) {
        let n = samples.count
        let fft = RealFFT(size: n)
        for (i, x) in samples.enumerated() { fft.input[i] = x }
        fft.forward()
        func amplitude(_ b: Int) -> Double {
            let re = Double(fft.spectrum[2 * b]), im = Double(fft.spectrum[2 * b + 1])
            return 2 * (re * re + im * im).squareRoot() / Double(n)
        }
        var spur = 0.0
        for b in 1..<(fft.binCount - 1) where b != k { spur = max(spur, amplitude(b)) }
        return (amplitude(k), spur)
    }

    @Test("44.1 kHz -> 16 kHz -> 48 kHz keeps a 1 kHz sine within 0.1 dB, spurs below -90 dBFS")
    func chainKeepsTone() throws {
        let source = TestSignals.sine(frequency: 1000, amplitude: 0.5, seconds: 3, sampleRate: 44100, channels: 2)
        let down = try Resampler.resample(source, to: 16000)
        #expect(down.frameCount == 48000)
        let up = try Resampler.resample(down, to: 48000)
        #expect(up.frameCount == 144_000)
        // One second from the middle, away from the filters' start-up: 1 Hz bins, tone on bin 1000.
        let mono = up.channel(0)
        let (tone, spur) = Self.toneAndSpur(mono[48000 ..< 96000], bin: 1000)
        let levelError = 20 * log10(tone / 0.5)
        #expect(abs(levelError) < 0.1, "level changed by \(levelError) dB")
        #expect(20 * log10(spur) < -90, "spur at \(20 * log10(spur)) dBFS")
        #expect(up.channel(1) == mono, "channels stay identical")
    }

    @Test("the analysis quality keeps 6 kHz within 0.1 dB and nothing from above 9.6 kHz folds below it")
    func analysisQuality() throws {
        for (frequency, keeps) in [(1000.0, true), (6000.0, true), (11_000.0, false), (15_000.0, false)] {
            let source = TestSignals.sine(frequency: frequency, amplitude: 0.5, seconds: 3, sampleRate: 44100, channels: 1)
            let down = try Resampler.resample(source, to: 16000, quality: .analysis)
            #expect(down.frameCount == 48000)
            // One second from the middle: 1 Hz bins; a folded tone lands on 16000 - f.
            let bin = keeps ? Int(frequency) : 16000 - Int(frequency)
            let (tone, _) = Self.toneAndSpur(down.channel(0)[16000 ..< 32000], bin: bin)
            if keeps {
                #expect(abs(20 * log10(tone / 0.5)) < 0.1, "\(frequency) Hz changed by \(20 * log10(tone / 0.5)) dB")
            } else {
                #expect(20 * log10(tone / 0.5) < -80, "\(frequency) Hz folds in at \(20 * log10(tone / 0.5)) dB")
            }
        }
    }

    @Test("block-wise conversion equals one-shot conversion")
    func streamingMatchesWhole() throws {
        let source = TestSignals.sine(frequency: 440, amplitude: 0.3, seconds: 1, sampleRate: 48000, channels: 1)
        let whole = try Resampler.resample(source, to: 16000)
        let resampler = try Resampler(inputRate: 48000, outputRate: 16000, channels: 1)
        var output: [Float] = []
        var offset = 0
        for size in [1, 7, 1000, 3, 4096, 12_345].cycled(until: source.samples.count) {
            let end = min(source.samples.count, offset + size)
            resampler.process(Array(source.samples[offset..<end]), into: &output)
            offset = end
        }
        resampler.flush(into: &output)
        #expect(output.count == whole.samples.count)
        let worst = zip(output, whole.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-6)
    }

    @Test("speed change shortens by the factor and raises the pitch")
    func speedChange() throws {
        let source = TestSignals.sine(frequency: 1000, amplitude: 0.5, seconds: 4, sampleRate: 16000, channels: 1)
        let faster = try Resampler.changeSpeed(source, by: 1.03)
        #expect(abs(Double(faster.frameCount) - 64000 / 1.03) <= 1)
        let tone = TestSignals.dominantTone(faster.samples, sampleRate: 16000)
        #expect(abs(tone.frequency - 1030) < 2)
    }

    @Test("an impulse keeps its position: output is aligned with input, as the watermark's delta path needs")
    func keepsAlignment() throws {
        var samples = [Float](repeating: 0, count: 44_100)
        samples[22_050] = 1
        let converted = try Resampler.resample(AudioBuffer(samples: samples, channels: 1, sampleRate: 44_100), to: 16_000)
        #expect(converted.frameCount == 16_000)
        let peak = converted.samples.indices.max { abs(converted.samples[$0]) < abs(converted.samples[$1]) } ?? -1
        #expect(abs(peak - 8_000) <= 1)
    }

    @Test("invalid rates are refused")
    func invalidRates() {
        #expect(throws: AudioError.self) { try Resampler(inputRate: 0, outputRate: 16000, channels: 1) }
        #expect(throws: AudioError.self) { try Resampler(inputRate: .nan, outputRate: 16000, channels: 1) }
    }
}

extension Array where Element == Int {
    /// Repeats the sizes until they add up to at least `total`.
    func cycled(until total: Int) -> [Int] {
        var out: [Int] = [], sum = 0, i = 0
        while sum < total { out.append(self[i % count]); sum += self[i % count]; i += 1 }
        return out
    }
}
