import Testing
@testable import QixAudio

/// The resampler keeps length and alignment, which the watermark's delta path relies on.
@Test func resamplerKeepsLengthAndAlignment() throws {
    let count = 44_100
    var samples = [Float](repeating: 0, count: count)
    samples[22_050] = 1
    let converted = try Resampler.resample(AudioBuffer(samples: samples, channels: 1, sampleRate: 44_100), to: 16_000)
    #expect(abs(converted.frameCount - 16_000) <= 1)
    let peak = converted.samples.indices.max { abs(converted.samples[$0]) < abs(converted.samples[$1]) }!
    #expect(abs(peak - 8_000) <= 1)
}
