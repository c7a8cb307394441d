/// A stretch of a channel's wall clock with no decoded audio.
public struct CoverageGap: Sendable, Equatable {
    /// Why nothing was decoded there.
    public enum Cause: String, Sendable, CaseIterable {
        /// No recording covers it.
        case notRecorded = "not recorded"
        /// A recording was cut short: its header declared audio that was not there.
        case damaged
        /// A recording starting in it could not be scanned (`qix report --failures`).
        case failed
    }

    /// First instant without audio.
    public var start: WallClockTime
    /// First instant with audio again (or the end of the period looked at).
    public var end: WallClockTime
    /// Why there was no audio.
    public var cause: Cause

    /// Length in seconds, to the millisecond.
    public var seconds: Double { ((end.secondsSinceEpoch - start.secondsSinceEpoch) * 1000).rounded() / 1000 }
}

/// What one channel's recordings prove was monitored: decoded hours, the stretches
/// without audio, and the airings found per monitored hour.
public struct ChannelCoverage: Sendable, Equatable {
    /// The channel (nil for recordings whose channel is unknown).
    public var channel: String?
    /// Recordings scanned.
    public var recordings: Int
    /// Recordings whose scan failed.
    public var failed: Int
    /// Start of the period looked at: the first recording's start, or the report's lower bound.
    public var start: WallClockTime?
    /// End of that period: the last recording's (intended) end, or the report's upper bound.
    public var end: WallClockTime?
    /// Seconds of decoded audio within the period (recordings overlapping in time count once).
    public var monitoredSeconds: Double
    /// The stretches of the period without decoded audio, in time order.
    public var gaps: [CoverageGap]
    /// Airings that start on this channel within the period.
    public var airings: Int

    /// Monitored hours.
    public var monitoredHours: Double { monitoredSeconds / 3600 }

    /// Airings per monitored hour; nil when nothing was monitored.
    public var airingsPerHour: Double? { monitoredSeconds > 0 ? Double(airings) / monitoredHours : nil }

    /// Total length of the gaps, seconds.
    public var gapSeconds: Double { ((gaps.reduce(0) { $0 + $1.seconds }) * 1000).rounded() / 1000 }
}

/// Works out each channel's coverage from the stored recordings.
public enum CoverageBuilder {
    /// One entry per channel with any stored recording (done or failed), ordered by name,
    /// the unknown channel last. Only the wall-clock period [`from`, `to`) counts when
    /// given; recordings without a known start then count for nothing. Gaps shorter than
    /// `minimumGap` seconds are not listed (their time is still not counted as monitored).
    public static func channels(_ recordings: [StoredRecording], airings: [Airing], from: WallClockTime? = nil,
                                to: WallClockTime? = nil, minimumGap: Double = 1) -> [ChannelCoverage] {
        let groups = Dictionary(grouping: recordings, by: \.channel)
        let names = groups.keys.sorted { a, b in
            switch (a, b) {
            case let (a?, b?): return a < b
            case (_?, nil): return true
            default: return false
            }
        }
        return names.map { name in
            coverage(of: groups[name]!, channel: name, airings: airings.filter { $0.channel == name }.count,
                     window: (from?.secondsSinceEpoch, to?.secondsSinceEpoch), minimumGap: minimumGap)
        }
    }

    /// One channel's coverage within `window` (either bound may be open).
    static func coverage(of all: [StoredRecording], channel: String?, airings: Int,
                         window: (lower: Double?, upper: Double?), minimumGap: Double) -> ChannelCoverage {
        // A channel with a timeline has gaps even in a period none of its recordings reaches.
        let timeline = all.contains { $0.intendedSpan != nil || (!$0.isDone && $0.wallclockStart != nil) }
        let recordings = all.filter { within($0, window) }
        let done = recordings.filter(\.isDone)
        let failedStarts = recordings.filter { !$0.isDone }.compactMap { $0.wallclockStart?.secondsSinceEpoch }
        let covered = union(done.compactMap(\.coveredSpan))
        let intended = done.compactMap(\.intendedSpan)
        let lower = window.lower ?? (intended.map(\.lowerBound) + failedStarts).min()
        let upper = window.upper ?? (intended.map(\.upperBound) + failedStarts).max()
        var result = ChannelCoverage(channel: channel, recordings: done.count, failed: recordings.count - done.count,
                                     start: lower.map { WallClockTime(secondsSinceEpoch: $0) }, end: upper.map { WallClockTime(secondsSinceEpoch: $0) },
                                     monitoredSeconds: 0, gaps: [], airings: airings)
        // Without a period, a recording of unknown start still proves its own decoded length.
        let untimed = window.lower == nil && window.upper == nil
            ? done.filter { $0.coveredSpan == nil }.reduce(0) { $0 + ($1.duration ?? 0) } : 0
        // A channel known only from recordings of unknown start has no timeline to hold gaps.
        guard timeline, let lower, let upper, lower < upper else {
            result.monitoredSeconds = millis(untimed)
            return result
        }
        let clipped = covered.compactMap { span -> ClosedRange<Double>? in
            let a = max(span.lowerBound, lower), b = min(span.upperBound, upper)
            return a < b ? a...b : nil
        }
        result.monitoredSeconds = millis(clipped.reduce(untimed) { $0 + $1.upperBound - $1.lowerBound })
        var cursor = lower
        for span in clipped + [upper...upper] {
            if span.lowerBound - cursor >= max(minimumGap, 0.001) {
                result.gaps.append(CoverageGap(start: WallClockTime(secondsSinceEpoch: cursor),
                                               end: WallClockTime(secondsSinceEpoch: span.lowerBound),
                                               cause: cause(from: cursor, to: span.lowerBound, done, failedStarts)))
            }
            cursor = max(cursor, span.upperBound)
        }
        return result
    }

    /// True when `recording` reaches into `window` (always without one; never, in a
    /// period, for a recording of unknown start).
    static func within(_ recording: StoredRecording, _ window: (lower: Double?, upper: Double?)) -> Bool {
        if window.lower == nil && window.upper == nil { return true }
        guard let start = recording.wallclockStart?.secondsSinceEpoch else { return false }
        let end = recording.intendedSpan?.upperBound ?? start
        return (window.upper.map { start < $0 } ?? true) && (window.lower.map { end > $0 || start >= $0 } ?? true)
    }

    /// Why [start, end) has no audio: a cut recording whose decoded audio ends where the gap
    /// starts, else a failed recording starting inside it, else no recording at all.
    static func cause(from start: Double, to end: Double, _ done: [StoredRecording], _ failedStarts: [Double]) -> CoverageGap.Cause {
        let cut = done.contains { recording in
            guard let covered = recording.coveredSpan, let intended = recording.intendedSpan else { return false }
            return intended.upperBound > covered.upperBound && abs(covered.upperBound - start) < 0.001
        }
        if cut { return .damaged }
        if failedStarts.contains(where: { $0 >= start && $0 < end }) { return .failed }
        return .notRecorded
    }

    /// Sorted, non-overlapping spans covering the same instants as `spans`.
    static func union(_ spans: [ClosedRange<Double>]) -> [ClosedRange<Double>] {
        var merged: [ClosedRange<Double>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, span.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        return merged
    }

    /// Seconds to the millisecond the detector and the database resolve.
    static func millis(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }
}
