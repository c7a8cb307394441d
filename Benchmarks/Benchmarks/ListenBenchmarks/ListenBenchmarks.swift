import Benchmark
import BenchmarkCorpus
import Foundation
import QixAudio
import QixWatermark

/// Live detection cost: a 48 kHz mono stream (speech, then a marked music spot, repeated)
/// fed to `StreamingDetector` in 100 ms blocks, as `qix listen` does.
/// x real time = 120 s of stream / wall time per iteration.
let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident]
    Benchmark("listen 120 s 48 kHz mono stream",
              configuration: .init(metrics: metrics, maxDuration: .seconds(20), maxIterations: 10)) { benchmark in
        let stream = try ListenStream.shared()
        let key = try WatermarkKey(hex: ListenStream.keyHex)
        benchmark.startMeasurement()
        let detector = try StreamingDetector(key: key, inputRate: 48_000, channels: 1)
        var heard = 0
        try stream.withUnsafeBufferPointer { all in
            var offset = 0
            while offset < all.count {
                let end = min(all.count, offset + 4800)
                heard += detector.feed(UnsafeBufferPointer(rebasing: all[offset..<end])).count
                offset = end
            }
        }
        heard += detector.finish().count
        benchmark.stopMeasurement()
        precondition(heard >= 2, "the marked spots were not heard")
    }
}

/// 120 s of 48 kHz mono built once per process: 30 s speech / 30 s marked music, twice.
enum ListenStream {
    static let keyHex = "102030405060708090a0b0c0d0e0f000"
    nonisolated(unsafe) private static var cached: [Float]?
    private static let lock = NSLock()

    static func shared() throws -> [Float] {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let speech = try Resampler.resample(AudioFileReader.readAll(path: corpusClip("a05_speech_en-audiobook_librivox-austen.flac")), to: 48_000)
        let music = try Resampler.resample(AudioFileReader.readAll(path: corpusClip("a02_music_orchestral_wesnoth_heroes-rite.flac")).mixedToMono(), to: 48_000)
        let marked = try WatermarkEmbedder(key: WatermarkKey(hex: keyHex), payload: WatermarkPayload(message: 0x5EED5EED)).embed(music)
        var stream: [Float] = []
        for _ in 0..<2 {
            stream += speech.samples.prefix(30 * 48_000)
            stream += marked.samples.prefix(15 * 48_000)
            stream += marked.samples.prefix(15 * 48_000)
        }
        cached = stream
        return stream
    }
}

