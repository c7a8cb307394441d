/// One stretch of one ID on air: detections of the same ID merged across adjacent
/// windows and, for consecutive recordings of one channel, across the file boundary.
public struct Airing: Sendable, Equatable {
    /// The ID, 8 lowercase hex digits.
    public var id: String
    /// The recording the airing starts in, as scanned.
    public var recording: String
    /// Channel of that recording.
    public var channel: String?
    /// Start, seconds from the recording's first sample.
    public var start: Double
    /// End, seconds from the same origin (beyond the recording's length when the airing
    /// runs on into the next recording).
    public var end: Double
    /// Wall-clock time of `start`, when the recording's start is known.
    public var wallclockStart: WallClockTime?
    /// Best detector score among the merged detections.
    public var score: Double

    /// Makes an airing from its parts.
    public init(id: String, recording: String, channel: String?, start: Double, end: Double,
                wallclockStart: WallClockTime?, score: Double) {
        self.id = id
        self.recording = recording
        self.channel = channel
        self.start = start
        self.end = end
        self.wallclockStart = wallclockStart
        self.score = score
    }
}

/// Builds airings from stored detections.
public enum AiringsBuilder {
    /// Merges `detections` into airings. Detections of one ID in one recording merge when
    /// the gap between them is at most `gap` seconds; an airing that reaches the end of a
    /// recording continues one that starts the next recording of the same channel when
    /// the two recordings abut (within `gap`) in wall-clock time. Ordered by recording
    /// path, then start, then ID. `recordings` adds those with no detection of their own:
    /// an airing found across a junction (stored with the recording after it, at a negative
    /// start) is given to the recording it starts in, which may be one of them.
    public static func airings(_ detections: [(recording: StoredRecording, detection: ScanDetection)],
                               recordings: [StoredRecording] = [], gap: Double = 2.0) -> [Airing] {
        var byRecording: [String: (StoredRecording, [ScanDetection])] = [:]
        for (recording, detection) in detections {
            byRecording[recording.file.path, default: (recording, [])].1.append(detection)
        }
        var perRecording: [String: [Airing]] = [:]
        for (path, (recording, list)) in byRecording {
            perRecording[path] = mergeWithin(recording, list.sorted { ($0.start, $0.message) < ($1.start, $1.message) }, gap: gap)
        }
        var stored = byRecording.mapValues(\.0)
        for recording in recordings where stored[recording.file.path] == nil { stored[recording.file.path] = recording }
        joinAcrossRecordings(&perRecording, recordings: stored, gap: gap)
        return perRecording.keys.sorted().flatMap { path in
            perRecording[path]!.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
        }
    }

    private static func mergeWithin(_ recording: StoredRecording, _ detections: [ScanDetection], gap: Double) -> [Airing] {
        var open: [String: Airing] = [:]
        var done: [Airing] = []
        for d in detections {
            if var current = open[d.message], d.start - current.end <= gap {
                current.end = max(current.end, d.end)
                current.score = max(current.score, d.score)
                open[d.message] = current
                continue
            }
            if let finished = open[d.message] { done.append(finished) }
            open[d.message] = Airing(id: d.message, recording: recording.file.path, channel: recording.channel,
                                     start: d.start, end: d.end,
                                     wallclockStart: recording.wallclockStart?.adding(d.start), score: d.score)
        }
        return done + open.values
    }

    /// Consecutive recordings of one channel form one timeline: airings of the same ID
    /// whose wall-clock gap is at most `gap` become one, kept with the recording it starts in.
    private static func joinAcrossRecordings(_ airings: inout [String: [Airing]], recordings: [String: StoredRecording], gap: Double) {
        let timed = recordings.values.filter { $0.channel != nil && $0.wallclockStart != nil }
        for (_, group) in Dictionary(grouping: timed, by: { $0.channel! }) where group.count > 1 {
            var all: [(absoluteStart: Double, absoluteEnd: Double, airing: Airing)] = []
            for recording in group {
                let origin = recording.wallclockStart!.secondsSinceEpoch
                for airing in airings[recording.file.path] ?? [] {
                    all.append((origin + airing.start, origin + airing.end, airing))
                }
                airings[recording.file.path] = []
            }
            all.sort { ($0.absoluteStart, $0.airing.id, $0.airing.recording) < ($1.absoluteStart, $1.airing.id, $1.airing.recording) }
            var open: [String: (absoluteStart: Double, absoluteEnd: Double, airing: Airing)] = [:]
            func close(_ entry: (absoluteStart: Double, absoluteEnd: Double, airing: Airing)) {
                var airing = entry.airing
                if airing.start < 0, let home = recording(covering: entry.absoluteStart, in: group) {
                    // Found across a junction, before the recording it was stored with.
                    airing.recording = home.path
                    airing.start = ((entry.absoluteStart - home.origin) * 1000).rounded() / 1000
                }
                // Epoch seconds carry ~1e-7 s of rounding: keep the millisecond the detector resolves.
                airing.end = ((airing.start + (entry.absoluteEnd - entry.absoluteStart)) * 1000).rounded() / 1000
                airings[airing.recording, default: []].append(airing)
            }
            for entry in all {
                if var current = open[entry.airing.id], entry.absoluteStart - current.absoluteEnd <= gap {
                    current.absoluteEnd = max(current.absoluteEnd, entry.absoluteEnd)
                    current.airing.score = max(current.airing.score, entry.airing.score)
                    open[entry.airing.id] = current
                } else {
                    if let finished = open[entry.airing.id] { close(finished) }
                    open[entry.airing.id] = entry
                }
            }
            for id in open.keys.sorted() { close(open[id]!) }
        }
    }

    /// The recording of `group` whose decoded span holds the wall-clock second `time`: the
    /// latest to start, where two overlap.
    private static func recording(covering time: Double, in group: [StoredRecording]) -> (path: String, origin: Double)? {
        group.compactMap { r in r.coveredSpan.map { (path: r.file.path, span: $0) } }
            .filter { $0.span.contains(time) }
            .max { ($0.span.lowerBound, $0.path) < ($1.span.lowerBound, $1.path) }
            .map { ($0.path, $0.span.lowerBound) }
    }
}
