import Foundation
import QixScan

/// Temporary folders and stand-in analyzers for the scan tests.
enum ScanFixtures {
    /// A fresh empty directory.
    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "qix-scan-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes `text` to `path`, creating folders.
    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// An analyzer that reads the file's text: lines `ID START END` become detections,
    /// `duration D` sets the length and `declared D` the length a cut file's header claims;
    /// `fail` makes it throw. It stands in for the watermark detector so the store, skip,
    /// merge and coverage logic can be tested in isolation.
    static let textAnalyzer: RecordingScanner.Analyzer = { path in
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var duration = 0.0
        var declared: Double?
        var detections: [ScanDetection] = []
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.first == "fail" { throw ScanError("cannot read audio", path, "not an audio file") }
            if parts.first == "duration", parts.count == 2 { duration = Double(parts[1]) ?? 0; continue }
            if parts.first == "declared", parts.count == 2 { declared = Double(parts[1]); continue }
            if parts.count == 3, let start = Double(parts[1]), let end = Double(parts[2]) {
                detections.append(ScanDetection(message: String(parts[0]), start: start, end: end, score: 10))
            }
        }
        return RecordingAnalysis(duration: duration, detections: detections,
                                 damage: declared.map { "\(path): truncated input: cut at \(duration) s of \($0) s" },
                                 declaredDuration: declared)
    }

    /// A scan run record for tests.
    static func run(_ uuid: String = UUID().uuidString, shard: String? = nil) -> ScanRun {
        ScanRun(uuid: uuid, startedAt: WallClockTime(secondsSinceEpoch: 1_800_000_000), qixkitVersion: "test",
                keyFingerprint: "k", host: "test", shard: shard)
    }

    /// Scans and returns the counts.
    @discardableResult
    static func scan(_ paths: [String], into database: AiringsDatabase, jobs: Int = 2,
                     analyzer: @escaping RecordingScanner.Analyzer = textAnalyzer) throws -> ScanProgress {
        let scanner = RecordingScanner(database: database, keyFingerprint: "k", jobs: jobs, analyze: analyzer)
        return try scanner.scan(paths, run: run(), report: { _, _ in }).0
    }

    /// A comparable dump of a database's airings.
    static func rows(_ database: AiringsDatabase) throws -> [String] {
        try AiringsBuilder.airings(database.detections()).map {
            "\($0.id) \($0.recording) \($0.channel ?? "-") \($0.start) \($0.end) \($0.wallclockStart?.iso8601 ?? "-")"
        }
    }
}
