import Testing
@testable import QixDSP
import QixTestSupport

/// Choosing an analysis converter, and the interleaved decimator against one per channel.
@Suite("Analysis conversion")
struct SampleRateConverterTests {
    /// 0.7 s of 700 Hz (left) and 3.1 kHz (right), apart and interleaved.
    static func twoTones(rate: Int) -> (left: [Float], right: [Float], stereo: [Float]) {
        let left = TestSignals.sine(frequency: 700, amplitude: 0.4, seconds: 0.7, sampleRate: rate, channels: 1).samples
        let right = TestSignals.sine(frequency: 3100, amplitude: 0.2, seconds: 0.7, sampleRate: rate, channels: 1).samples
        var stereo: [Float] = []
        for i in left.indices { stereo += [left[i], right[i]] }
        return (left, right, stereo)
    }

    @Test("the decimator where the ratio allows, soxr for odd ratios and upsampling, nothing at 16 kHz")
    func choice() throws {
        #expect(try AnalysisConversion.converter(from: 44100, to: 16000, channels: 2, readBandEnd: 6300) is InterleavedPolyphaseResampler)
        #expect(try AnalysisConversion.converter(from: 44056, to: 16000, channels: 1, readBandEnd: 6300) is Resampler)
        #expect(try AnalysisConversion.converter(from: 8000, to: 16000, channels: 1, readBandEnd: 6300) is Resampler)
        #expect(try AnalysisConversion.converter(from: 16000, to: 16000, channels: 1, readBandEnd: 6300) == nil)
        // The embedder's delta: polyphase up where the ratio allows, soxr otherwise and down.
        #expect(try AnalysisConversion.bandLimitedConverter(from: 16000, to: 44100, channels: 2, bandEnd: 6400) is InterleavedPolyphaseResampler)
        #expect(try AnalysisConversion.bandLimitedConverter(from: 16000, to: 44056, channels: 2, bandEnd: 6400) is Resampler)
        #expect(try AnalysisConversion.bandLimitedConverter(from: 16000, to: 12000, channels: 1, bandEnd: 6400) is Resampler)
        #expect(try AnalysisConversion.bandLimitedConverter(from: 16000, to: 16000, channels: 1, bandEnd: 6400) == nil)
    }

    @Test("planar input converts as the same channels interleaved, for both kinds of converter")
    func planarMatchesInterleaved() throws {
        let (left, right, stereo) = Self.twoTones(rate: 16000)
        for rate in [44100, 44056] {
            func convert(planar: Bool) throws -> [Float] {
                let converter = try #require(try AnalysisConversion.bandLimitedConverter(from: 16000, to: rate, channels: 2, bandEnd: 6400))
                var output: [Float] = []
                var offset = 0
                for size in [3, 700, 1, 4096].cycled(until: left.count) {
                    let end = min(left.count, offset + size)
                    if planar {
                        left[offset..<end].withUnsafeBufferPointer { l in
                            right[offset..<end].withUnsafeBufferPointer { r in converter.process(planar: [l, r], into: &output) }
                        }
                    } else {
                        stereo[(2 * offset)..<(2 * end)].withUnsafeBufferPointer { converter.process($0, into: &output) }
                    }
                    offset = end
                }
                converter.flush(into: &output)
                return output
            }
            let planar = try convert(planar: true)
            #expect(planar.count == 2 * Int((Double(left.count) * Double(rate) / 16000).rounded()))
            #expect(planar == (try convert(planar: false)), "\(rate) Hz")
        }
    }

    @Test("interleaved stereo comes out as each channel decimated on its own, interleaved")
    func stereoMatchesChannels() throws {
        let (left, right, stereo) = Self.twoTones(rate: 48000)
        let converter = try #require(try AnalysisConversion.converter(from: 48000, to: 16000, channels: 2, readBandEnd: 6300))
        var output: [Float] = []
        var offset = 0
        for size in [2, 14, 2000, 6, 8192].cycled(until: stereo.count) {
            let end = min(stereo.count, offset + size)
            stereo[offset..<end].withUnsafeBufferPointer { converter.process($0, into: &output) }
            offset = end
        }
        converter.flush(into: &output)
        func alone(_ samples: [Float]) throws -> [Float] {
            let decimator = try #require(PolyphaseResampler(inputRate: 48000, outputRate: 16000, passbandEnd: 6300,
                                                            stopbandBegin: 9700, attenuation: 60))
            var out: [Float] = []
            decimator.process(samples, into: &out)
            decimator.flush(into: &out)
            return out
        }
        let l = try alone(left), r = try alone(right)
        #expect(output.count == 2 * l.count)
        #expect(stride(from: 0, to: output.count, by: 2).map { output[$0] } == l)
        #expect(stride(from: 1, to: output.count, by: 2).map { output[$0] } == r)
    }
}
