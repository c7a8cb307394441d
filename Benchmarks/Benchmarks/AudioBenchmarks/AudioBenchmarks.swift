import Benchmark
import BenchmarkCorpus
import Foundation
import QixAudio

/// Audio I/O and DSP floors: how fast QixKit decodes, transforms and resamples.
///
/// Each benchmark processes a known amount of audio per iteration; "x real time" is
/// that duration divided by the wall-clock time per iteration that the report prints.
let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .instructions, .mallocCountTotal, .peakMemoryResident]

    // Decode + 1024-point real FFT (hop 1024) over a corpus clip: the floor under
    // everything that reads audio files. a01 is 15 s of 44.1 kHz stereo FLAC.
    Benchmark("decode+fft1024 a01 (15 s FLAC 44.1k stereo)",
              configuration: .init(metrics: metrics, maxDuration: .seconds(5), maxIterations: 40)) { benchmark in
        let path = corpusClip("a01_music_rock_sectoid_metal-madness.flac")
        let fft = RealFFT(size: 1024)
        var mono = [Float](repeating: 0, count: 1024)
        var energy: Float = 0
        benchmark.startMeasurement()
        let reader = try AudioFileReader(path: path)
        try reader.forEachBlock(blockFrames: 1024) { block in
            let frames = block.count / reader.info.channels
            mono.withUnsafeMutableBufferPointer { ChannelMixer.mixDown(block, channels: reader.info.channels, into: $0) }
            for i in 0..<1024 { fft.input[i] = i < frames ? mono[i] : 0 }
            fft.forward()
            energy += fft.spectrum[2]
        }
        benchmark.stopMeasurement()
        blackHole(energy)
    }

    // Resampling 10 minutes of 44.1 kHz stereo to 16 kHz (the codec's working rate).
    Benchmark("resample 44.1k->16k 10 min stereo",
              configuration: .init(metrics: metrics, maxDuration: .seconds(10), maxIterations: 5)) { benchmark in
        let seconds = 600, rate = 44100
        var samples = [Float](repeating: 0, count: seconds * rate * 2)
        var state: UInt32 = 1
        for i in 0..<samples.count {
            state = state &* 1_664_525 &+ 1_013_904_223
            samples[i] = Float(Int32(bitPattern: state)) / 4_294_967_296
        }
        let resampler = try Resampler(inputRate: Double(rate), outputRate: 16000, channels: 2)
        var output: [Float] = []
        output.reserveCapacity(seconds * 16000 * 2 + 4096)
        let block = 65_536 * 2
        benchmark.startMeasurement()
        samples.withUnsafeBufferPointer { all in
            var offset = 0
            while offset < all.count {
                let end = min(all.count, offset + block)
                resampler.process(UnsafeBufferPointer(rebasing: all[offset..<end]), into: &output)
                offset = end
            }
        }
        resampler.flush(into: &output)
        benchmark.stopMeasurement()
        blackHole(output.count)
    }
}

