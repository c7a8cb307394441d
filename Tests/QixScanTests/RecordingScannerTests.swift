import Foundation
import Testing
import QixAudio
import QixScan
import QixTestSupport
import QixWatermark

/// Progress within a recording: the scanner passes on how far the analyzer has read.
struct RecordingScannerTests {
    /// The reports a scan made, from its worker threads.
    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [ScanProgress] = []
        func add(_ progress: ScanProgress) { lock.lock(); list.append(progress); lock.unlock() }
        var all: [ScanProgress] { lock.lock(); defer { lock.unlock() }; return list }
    }

    /// A 60 s recording read with a report every 2 s of audio: progress moves many times
    /// before the recording is done, by decoded seconds, against the header's 60 s.
    @Test func progressMovesWithinOneRecording() throws {
        let directory = try ScanFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/long.flac"
        try AudioFileWriter.write(TestSignals.sine(frequency: 440, amplitude: 0.3, seconds: 60, sampleRate: 48_000, channels: 2),
                                  to: path)
        var reporting = WatermarkRecordingAnalyzer(key: WatermarkKey.publicTestKey)
        reporting.progressInterval = 2
        let analyzer = reporting
        let scanner = RecordingScanner(database: try AiringsDatabase(path: directory + "/a.sqlite"),
                                       keyFingerprint: analyzer.settingsFingerprint, jobs: 1,
                                       analyzeReporting: { path, progress in try analyzer.analyze(path: path, progress: progress) })
        let reports = Reports()
        let (final, failures) = try scanner.scan([path], run: ScanFixtures.run(), report: { progress, _ in reports.add(progress) })
        #expect(failures.isEmpty)
        let within = reports.all.filter { $0.finished == 0 }
        #expect(within.count >= 10, "\(within.count) reports within the recording")
        #expect(within.map(\.decodedSeconds) == within.map(\.decodedSeconds).sorted())
        #expect(within.allSatisfy { $0.reading == 1 && abs(($0.expectedSeconds ?? 0) - 60) < 0.01 })
        #expect(final.scanned == 1 && abs(final.decodedSeconds - 60) < 0.01 && final.reading == 0)
    }

    /// The total to expect: what is scanned, the headers of what is being read, and their
    /// mean length for the recordings not opened yet.
    @Test func expectedSecondsExtrapolatesTheUnopened() {
        var progress = ScanProgress(total: 4)
        #expect(progress.expectedSeconds == nil)
        progress.scanned = 1
        progress.audioSeconds = 100
        progress.reading = 1
        progress.readingSeconds = 20
        progress.readingDeclaredSeconds = 200
        #expect(progress.decodedSeconds == 120)
        #expect(progress.expectedSeconds == 600)
        progress.skipped = 2
        #expect(progress.expectedSeconds == 300)
    }
}
