import Benchmark
import BenchmarkCorpus
import Foundation
import QixAudio
import QixScan
import QixWatermark

/// Batch scanning throughput: an archive of 44.1 kHz stereo FLAC recordings scanned into
/// a fresh airings database with 1 and 2 jobs, including decoding, detection and the
/// database writes. x real time = archive seconds (4 x 600 s = 2400 s) / wall time.
let benchmarks: @Sendable () -> Void = {
    // As `qix` does at start: freed blocks serve the next recording.
    ProcessMemory.keepFreedBlocks()
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident]
    for jobs in [1, 2] {
        Benchmark("scan 4 x 10 min FLAC 44.1k stereo, \(jobs) job\(jobs == 1 ? "" : "s")",
                  configuration: .init(metrics: metrics, maxDuration: .seconds(30), maxIterations: 3)) { benchmark in
            let archive = try ScanBenchArchive.shared()
            let dbPath = archive.directory + "/bench-\(jobs)-\(UUID().uuidString).sqlite"
            defer { try? FileManager.default.removeItem(atPath: dbPath) }
            benchmark.startMeasurement()
            let database = try AiringsDatabase(path: dbPath)
            let analyzer = WatermarkRecordingAnalyzer(key: archive.key)
            let scanner = RecordingScanner(database: database, keyFingerprint: archive.key.fingerprint, jobs: jobs,
                                           analyze: { try analyzer.analyze(path: $0) })
            let run = ScanRun(uuid: UUID().uuidString, startedAt: WallClockTime(secondsSinceEpoch: 0), qixkitVersion: "bench",
                              keyFingerprint: archive.key.fingerprint, host: "bench", shard: nil)
            let (progress, failures) = try scanner.scan(archive.paths, run: run, report: { _, _ in })
            benchmark.stopMeasurement()
            precondition(failures.isEmpty && progress.scanned == archive.paths.count, "scan failed: \(failures)")
        }
    }
}

/// Four 10-minute recordings built once per process from corpus music, each with a
/// marked spot, written as 44.1 kHz stereo FLAC to a temporary folder.
final class ScanBenchArchive: @unchecked Sendable {
    let directory: String
    let paths: [String]
    let key: WatermarkKey

    nonisolated(unsafe) private static var cached: ScanBenchArchive?
    private static let lock = NSLock()

    static func shared() throws -> ScanBenchArchive {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let made = try ScanBenchArchive()
        cached = made
        return made
    }

    private init() throws {
        directory = NSTemporaryDirectory() + "qix-scan-bench-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        key = try WatermarkKey(hex: "00112233445566778899aabbccddeeff")
        let music = try AudioFileReader.readAll(path: corpusClip("a02_music_orchestral_wesnoth_heroes-rite.flac"))
        let marked = try WatermarkEmbedder(key: key, payload: WatermarkPayload(message: 0xC0FFEE01)).embed(music)
        let frames = 600 * 44100
        var made: [String] = []
        for index in 0..<4 {
            var samples = [Float](repeating: 0, count: frames * 2)
            for i in 0..<frames {
                let source = (i + index * 12_345) % music.frameCount
                samples[2 * i] = music.samples[2 * source] * 0.5
                samples[2 * i + 1] = music.samples[2 * source + 1] * 0.5
            }
            // One marked spot per recording, at a different place in each.
            let at = (60 + 100 * index) * 44100
            for i in 0..<marked.frameCount {
                samples[2 * (at + i)] = marked.samples[2 * i]
                samples[2 * (at + i) + 1] = marked.samples[2 * i + 1]
            }
            let path = "\(directory)/ch\(index)_20261121_100000.flac"
            try AudioFileWriter.write(AudioBuffer(samples: samples, channels: 2, sampleRate: 44100), to: path)
            made.append(path)
        }
        paths = made
    }
}

