import Foundation
import Testing
@testable import QixDSP
import QixTestSupport

/// The polyphase filter: down (the analysis decimator: band kept, band folded back) and up
/// (the embedder's delta: band kept, images removed), timing and streaming.
@Suite("Polyphase resampling")
struct PolyphaseResamplerTests {
    /// The watermark detector's settings: read to 6.3 kHz of 16 kHz, 60 dB.
    static func detectorDecimator(from rate: Int) -> PolyphaseResampler? {
        PolyphaseResampler(inputRate: rate, outputRate: 16000, passbandEnd: 6300, stopbandBegin: 9700, attenuation: 60)
    }

    static func decimate(_ samples: [Float], from rate: Int) throws -> [Float] {
        convert(samples, with: try #require(detectorDecimator(from: rate)))
    }

    /// The whole of `samples` through `converter` in one block, flushed.
    static func convert(_ samples: [Float], with converter: PolyphaseResampler) -> [Float] {
        var output: [Float] = []
        converter.process(samples, into: &output)
        converter.flush(into: &output)
        return output
    }

    @Test("44.1 and 48 kHz: tones to 6.2 kHz within 0.02 dB, tones above 9.7 kHz fold back more than 58 dB down")
    func passbandAndStopband() throws {
        for rate in [44100, 48000] {
            for (frequency, keeps) in [(500.0, true), (3000.0, true), (6200.0, true),
                                       (9800.0, false), (10_000.0, false), (12_000.0, false), (20_000.0, false)] {
                let source = TestSignals.sine(frequency: frequency, amplitude: 0.5, seconds: 3, sampleRate: rate, channels: 1)
                let down = try Self.decimate(source.samples, from: rate)
                #expect(down.count == 48000)
                // One second from the middle: 1 Hz bins; a folded tone lands on |16000 - f| mod 16000.
                let folded = Int(frequency) % 16000
                let bin = keeps ? Int(frequency) : min(folded, 16000 - folded)
                let (tone, _) = ResamplerTests.toneAndSpur(down[16000 ..< 32000], bin: bin)
                let level = 20 * log10(tone / 0.5)
                if keeps {
                    #expect(abs(level) < 0.02, "\(rate) Hz: \(frequency) Hz changed by \(level) dB")
                } else {
                    // Kaiser's formulas for 60 dB: the worst lobe is 59.3 dB down from 48 kHz.
                    #expect(level < -58, "\(rate) Hz: \(frequency) Hz folds in at \(level) dB")
                }
            }
        }
    }

    @Test("output sample n stands at input time n / 16 kHz, as soxr's does")
    func noDelay() throws {
        // A band-limited signal: the decimator and soxr's high quality must agree sample
        // by sample (a one-sample shift would leave a 3 kHz difference 6 dB under the tone).
        let rate = 44100
        var samples = [Float](repeating: 0, count: rate * 2)
        for i in samples.indices {
            let t = Double(i) / Double(rate)
            samples[i] = Float(0.3 * sin(2 * .pi * 3000 * t) + 0.2 * sin(2 * .pi * 700 * t + 1))
        }
        let ours = try Self.decimate(samples, from: rate)
        let soxr = try Resampler.resample(AudioBuffer(samples: samples, channels: 1, sampleRate: rate), to: 16000).samples
        #expect(ours.count == soxr.count)
        // Away from both ends, where the filters see zeros.
        let worst = zip(ours[1000 ..< 31000], soxr[1000 ..< 31000]).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 0.003, "largest difference \(worst)")
    }

    @Test("block-wise decimation equals one-shot decimation bit for bit, with round(n * 16000 / rate) outputs")
    func streamingMatchesWhole() throws {
        for rate in [22050, 44100, 48000, 96000] {
            let source = TestSignals.sine(frequency: 440, amplitude: 0.3, seconds: 1.3, sampleRate: rate, channels: 1).samples
            let whole = try Self.decimate(source, from: rate)
            #expect(whole.count == Int((Double(source.count) * 16000 / Double(rate)).rounded()))
            let decimator = try #require(Self.detectorDecimator(from: rate))
            var output: [Float] = []
            var offset = 0
            for size in [1, 7, 1000, 3, 40, 4096, 12_345, 2].cycled(until: source.count) {
                let end = min(source.count, offset + size)
                decimator.process(Array(source[offset..<end]), into: &output)
                offset = end
            }
            decimator.flush(into: &output)
            #expect(output == whole, "\(rate) Hz")
        }
    }

    @Test("the baseline and AVX2 builds of the filter loop give the same samples, and so does a plain dot product")
    func kernelsAgree() throws {
        let rate = 44100
        let source = TestSignals.sine(frequency: 2500, amplitude: 0.4, seconds: 0.5, sampleRate: rate, channels: 1).samples
            .enumerated().map { $0.element + Float(($0.offset * 7919) % 211) / 2110 - 0.05 }
        func run(_ kernel: PolyphaseResampler.Kernel) throws -> [Float] {
            let decimator = try #require(Self.detectorDecimator(from: rate))
            decimator.kernel = kernel
            var output: [Float] = []
            decimator.process(source, into: &output)
            decimator.flush(into: &output)
            return output
        }
        let portable = try run(.portable)
        if PolyphaseResampler.bestKernel == .avx2 {
            #expect(try run(.avx2).map(\.bitPattern) == portable.map(\.bitPattern))
        }
        // The same sums in plain Swift: output n at input n * 441 / 160, taps from whole - 23.
        let decimator = try #require(Self.detectorDecimator(from: rate))
        let table = decimator.coefficientTable, taps = decimator.taps
        for n in [100, 101, 2000, 5000] {
            let whole = n * 441 / 160, phase = n * 441 % 160
            var even = SIMD8<Float>(), odd = SIMD8<Float>()
            func lane8(_ k: Int) -> SIMD8<Float> {
                SIMD8<Float>((0..<8).map { source[whole - (taps / 2 - 1) + k + $0] * table[phase * taps + k + $0] })
            }
            var k = 0
            while k + 16 <= taps { even += lane8(k); odd += lane8(k + 8); k += 16 }
            if k < taps { even += lane8(k) }
            let s8 = even + odd, s4 = s8.lowHalf + s8.highHalf, s2 = s4.lowHalf + s4.highHalf
            #expect(portable[n].bitPattern == (s2[0] + s2[1]).bitPattern, "output \(n)")
        }
    }

    /// The embedder's delta converter: band to 6.4 kHz, from 16 kHz up.
    static func deltaUpsampler(to rate: Int) -> PolyphaseResampler? {
        PolyphaseResampler(inputRate: 16000, outputRate: rate, passbandEnd: 6400, stopbandBegin: 9600, attenuation: 72)
    }

    static func upsample(_ samples: [Float], to rate: Int) throws -> [Float] {
        convert(samples, with: try #require(deltaUpsampler(to: rate)))
    }

    @Test("16 kHz up to 22.05, 44.1 and 48 kHz: tones to 6.3 kHz within 0.01 dB, their images more than 70 dB down")
    func upsamplingPassbandAndImages() throws {
        for rate in [22050, 44100, 48000] {
            #expect(try #require(Self.deltaUpsampler(to: rate)).taps == 24)
            for frequency in [500.0, 3000.0, 6300.0] {
                let source = TestSignals.sine(frequency: frequency, amplitude: 0.5, seconds: 3, sampleRate: 16000, channels: 1)
                let up = try Self.upsample(source.samples, to: rate)
                #expect(up.count == 3 * rate)
                let (tone, _) = ResamplerTests.toneAndSpur(up[rate ..< 2 * rate], bin: Int(frequency))
                #expect(abs(20 * log10(tone / 0.5)) < 0.01, "\(rate) Hz: \(frequency) Hz")
                // The first image, 16 kHz - f, where the output has room for it.
                let image = 16000 - Int(frequency)
                guard image < rate / 2 else { continue }
                let (imageLevel, _) = ResamplerTests.toneAndSpur(up[rate ..< 2 * rate], bin: image)
                #expect(20 * log10(imageLevel / 0.5) < -70, "\(rate) Hz: image of \(frequency) Hz")
            }
        }
    }

    @Test("upsampled output sample n stands at input time n * 16 kHz / rate, as soxr's does, block-wise bit for bit")
    func upsamplingTimingAndStreaming() throws {
        var samples = [Float](repeating: 0, count: 32000)
        for i in samples.indices {
            let t = Double(i) / 16000
            samples[i] = Float(0.3 * sin(2 * .pi * 3000 * t) + 0.2 * sin(2 * .pi * 700 * t + 1))
        }
        let ours = try Self.upsample(samples, to: 44100)
        let soxr = try Resampler.resample(AudioBuffer(samples: samples, channels: 1, sampleRate: 16000), to: 44100).samples
        #expect(ours.count == soxr.count)
        let worst = zip(ours[3000 ..< 85000], soxr[3000 ..< 85000]).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 0.003, "largest difference \(worst)")
        let converter = try #require(Self.deltaUpsampler(to: 44100))
        var output: [Float] = []
        var offset = 0
        for size in [1, 7, 1000, 3, 40, 4096, 2].cycled(until: samples.count) {
            let end = min(samples.count, offset + size)
            converter.process(Array(samples[offset..<end]), into: &output)
            offset = end
        }
        converter.flush(into: &output)
        #expect(output == ours)
    }

    @Test("two channels in lockstep give each channel's samples alone, bit for bit, in both builds, down and up")
    func lockstepPairMatchesChannelsAlone() throws {
        let left = TestSignals.sine(frequency: 2500, amplitude: 0.4, seconds: 0.5, sampleRate: 44100, channels: 1).samples
            .enumerated().map { $0.element + Float(($0.offset * 7919) % 211) / 2110 - 0.05 }
        let right = left.reversed().map { -0.5 * $0 }
        let makers: [() -> PolyphaseResampler?] = [{ Self.detectorDecimator(from: 44100) },
                                                   { Self.deltaUpsampler(to: 44100) }]
        for make in makers {
            for kernel in [PolyphaseResampler.Kernel.portable, PolyphaseResampler.bestKernel] {
                func alone(_ samples: [Float]) throws -> [Float] {
                    let converter = try #require(make())
                    converter.kernel = kernel
                    return Self.convert(samples, with: converter)
                }
                let pair = [try #require(make()), try #require(make())]
                for converter in pair { converter.kernel = kernel }
                var output: [Float] = []
                var offset = 0
                for size in [5, 999, 1, 4096, 77].cycled(until: left.count) {
                    let end = min(left.count, offset + size)
                    left[offset..<end].withUnsafeBufferPointer { l in
                        right[offset..<end].withUnsafeBufferPointer { r in
                            PolyphaseResampler.process(lockstep: pair, [l, r], into: &output)
                        }
                    }
                    offset = end
                }
                PolyphaseResampler.flush(lockstep: pair, into: &output)
                let l = try alone(left), r = try alone(right)
                #expect(output.count == 2 * l.count)
                #expect(stride(from: 0, to: output.count, by: 2).map { output[$0].bitPattern } == l.map(\.bitPattern))
                #expect(stride(from: 1, to: output.count, by: 2).map { output[$0].bitPattern } == r.map(\.bitPattern))
            }
        }
    }

    @Test("ratios that need too many phases, and nonsense settings, are refused")
    func refusals() {
        #expect(Self.detectorDecimator(from: 44056) == nil)   // 2 000 phases: soxr's job
        #expect(Self.detectorDecimator(from: 16000) == nil)   // not a conversion
        #expect(Self.deltaUpsampler(to: 16000) == nil)
        // Up, the stopband may not begin past the passband's first image, nor past the output's Nyquist.
        #expect(PolyphaseResampler(inputRate: 16000, outputRate: 44100, passbandEnd: 6400, stopbandBegin: 9700) == nil)
        #expect(PolyphaseResampler(inputRate: 16000, outputRate: 18000, passbandEnd: 6400, stopbandBegin: 9600) == nil)
        #expect(PolyphaseResampler(inputRate: 48000, outputRate: 16000, passbandEnd: 7000, stopbandBegin: 6000) == nil)
        #expect(Self.detectorDecimator(from: 44100)?.taps == 48)
    }

    @Test("the Kaiser window's Bessel function matches its tabulated values")
    func bessel() {
        #expect(abs(PolyphaseResampler.besselI0(0) - 1) < 1e-15)
        #expect(abs(PolyphaseResampler.besselI0(1) - 1.2660658777520082) < 1e-14)
        #expect(abs(PolyphaseResampler.besselI0(5) - 27.239871823604442) < 1e-11)
    }
}
