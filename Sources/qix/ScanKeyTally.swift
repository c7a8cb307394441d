import Foundation
import QixScan

/// What each key of a multi-key `qix scan` found, counted as recordings are analysed, for
/// the summary: the airings database stores the IDs, not which key found them (its schema
/// has no column for it), so the scan says it on stderr.
final class ScanKeyTally: @unchecked Sendable {
    private let paths: [String]
    private let lock = NSLock()
    private var detections: [Int]
    private var recordings: [Int]

    /// A tally for the keys at `paths`, in the analyzer's order.
    init(paths: [String]) {
        self.paths = paths
        detections = Array(repeating: 0, count: paths.count)
        recordings = Array(repeating: 0, count: paths.count)
    }

    /// Counts one recording's detections by the key that found them.
    func add(_ analysis: RecordingAnalysis) {
        lock.lock()
        defer { lock.unlock() }
        var seen = Set<Int>()
        for detection in analysis.detections {
            guard let index = detection.keyIndex, paths.indices.contains(index) else { continue }
            detections[index] += 1
            if seen.insert(index).inserted { recordings[index] += 1 }
        }
    }

    /// One line per key: "key a.key: 3 detections in 2 of the recordings scanned".
    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return paths.indices.map { "key \(paths[$0]): \(detections[$0]) detections in \(recordings[$0]) of the recordings scanned" }
    }
}
