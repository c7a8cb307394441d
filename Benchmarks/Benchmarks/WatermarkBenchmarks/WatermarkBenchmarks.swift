import Benchmark
import Foundation
import QixAudio
import QixWatermark

/// The watermark codec's speed targets: `detect` (decode + 16 kHz analysis + speed search +
/// decoding, chunked as `qix detect` runs it) and `embed` (decode + block-wise embed +
/// encode, as `qix embed` runs it) on 10 minutes of 44.1 kHz stereo FLAC,
/// and the analysis-only floor on the same file. "x real time" = 600 s / wall time per iteration.
let benchmarks: @Sendable () -> Void = {
    // As `qix` does at start: freed blocks serve the next run.
    ProcessMemory.keepFreedBlocks()
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .peakMemoryResident]
    let configuration = Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(30), maxIterations: 5)

    // The design bound: the speed search may cost at most twice plain detection.
    for (name, searchesSpeed) in [("", true), (", speed 1 only", false)] {
        Benchmark("watermark detect 10 min FLAC 44.1k stereo" + name, configuration: configuration) { benchmark in
            let (_, marked) = try tenMinuteFiles()
            let detector = WatermarkDetector(key: .publicTestKey, searchesSpeed: searchesSpeed)
            benchmark.startMeasurement()
            // What `qix detect` and `qix scan` run: the bounded-memory chunked detector.
            let reader = try AudioFileReader(path: marked)
            let recording = try RecordingDetector(detector: detector, inputRate: reader.info.sampleRate, channels: 1)
            try reader.forEachMonoBlock { recording.feed($0) }
            let found = recording.finish(duration: 600)
            benchmark.stopMeasurement()
            precondition(found.first?.message == 0x1234_5678, "benchmark file lost its mark")
        }
    }

    Benchmark("watermark analysis floor (decode + 16 kHz STFT) 10 min FLAC", configuration: configuration) { benchmark in
        let (_, marked) = try tenMinuteFiles()
        benchmark.startMeasurement()
        let reader = try AudioFileReader(path: marked)
        let frontEnd = try SpectralFrontEnd(inputRate: reader.info.sampleRate, channels: 1)
        try reader.forEachMonoBlock { frontEnd.feed($0) }
        frontEnd.finish()
        benchmark.stopMeasurement()
        blackHole(frontEnd.spectra.count)
    }

    Benchmark("watermark embed 10 min FLAC 44.1k stereo -> FLAC", configuration: configuration) { benchmark in
        let (plain, _) = try tenMinuteFiles()
        let embedder = try WatermarkEmbedder(key: .publicTestKey, payload: WatermarkPayload(message: 0x1234_5678))
        let output = NSTemporaryDirectory() + "/qix-bench-embed-\(getpid()).flac"
        benchmark.startMeasurement()
        // What `qix embed` runs: block-wise from reader to writer, bounded memory.
        let reader = try AudioFileReader(path: plain)
        let writer = BackgroundAudioWriter(try AudioFileWriter(path: output, sampleRate: reader.info.sampleRate,
                                                               channels: reader.info.channels))
        _ = try embedder.embed(from: reader) { try writer.write($0) }
        try writer.finish()
        benchmark.stopMeasurement()
        unlink(output)
    }
}

/// Builds (once per process) a 10-minute 44.1 kHz stereo FLAC from the corpus hosts,
/// looped, and its marked copy; returns both paths.
func tenMinuteFiles() throws -> (plain: String, marked: String) {
    let directory = NSTemporaryDirectory() + "/qix-bench-watermark"
    // The marked copy is named by format, so a cached one from an older format is not reused.
    let plain = directory + "/plain.flac", marked = directory + "/marked-format\(WatermarkFormat.current.rawValue).flac"
    if FileManager.default.fileExists(atPath: marked) { return (plain, marked) }
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var clips = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { clips.deleteLastPathComponent() }
    clips.appendPathComponent("corpus/clips")
    var samples: [Float] = []
    let total = 600 * 44_100 * 2
    let names = try FileManager.default.contentsOfDirectory(atPath: clips.path).filter { $0.hasPrefix("a0") }.sorted()
    var hosts: [[Float]] = []
    for name in names {
        let clip = try Resampler.resample(AudioFileReader.readAll(path: clips.appendingPathComponent(name).path), to: 44_100)
        let stereo = clip.channels == 2 ? clip.samples : clip.samples.flatMap { [$0, $0] }
        hosts.append(stereo)
    }
    while samples.count < total {
        for host in hosts where samples.count < total { samples.append(contentsOf: host.prefix(total - samples.count)) }
    }
    let audio = AudioBuffer(samples: samples, channels: 2, sampleRate: 44_100)
    try AudioFileWriter.write(audio, to: plain)
    var copy = audio
    try WatermarkEmbedder(key: .publicTestKey, payload: WatermarkPayload(message: 0x1234_5678)).embed(into: &copy)
    try AudioFileWriter.write(copy, to: marked)
    return (plain, marked)
}
