/// One detected ID in one recording, as the detector reports it (seconds from the
/// recording's start).
public struct ScanDetection: Sendable, Equatable {
    /// The ID as 8 lowercase hex digits.
    public var message: String
    /// Start of the stretch that carried the ID, seconds.
    public var start: Double
    /// End of that stretch, seconds.
    public var end: Double
    /// The detector's confidence.
    public var score: Double
    /// Which of the analyzer's keys found it (its place in `WatermarkRecordingAnalyzer.keys`),
    /// for a front end to report; nil when not known. The database does not store it.
    public var keyIndex: Int?

    /// Makes a detection.
    public init(message: String, start: Double, end: Double, score: Double, keyIndex: Int? = nil) {
        self.message = message
        self.start = start
        self.end = end
        self.score = score
        self.keyIndex = keyIndex
    }
}

/// What the detector found in one whole recording.
public struct RecordingAnalysis: Sendable, Equatable {
    /// Audio length, seconds.
    public var duration: Double
    /// Detections in time order.
    public var detections: [ScanDetection]
    /// What a cut or damaged recording lost (it is scanned up to where it breaks), in one line.
    public var damage: String?
    /// Seconds the recording's header declared, when it declared more than `duration` could
    /// be decoded (a cut file): the span from `duration` to here was lost.
    public var declaredDuration: Double?

    /// Makes an analysis.
    public init(duration: Double, detections: [ScanDetection], damage: String? = nil, declaredDuration: Double? = nil) {
        self.duration = duration
        self.detections = detections
        self.damage = damage
        self.declaredDuration = declaredDuration
    }
}

/// A recording as stored in the database.
public struct StoredRecording: Sendable, Equatable {
    /// Row id.
    public var id: Int64
    /// Identity on disk when it was scanned.
    public var file: RecordingFile
    /// Audio length, seconds (nil when the scan failed).
    public var duration: Double?
    /// Channel name from the file name or sidecar.
    public var channel: String?
    /// Wall-clock time of the recording's first sample.
    public var wallclockStart: WallClockTime?
    /// True when the scan succeeded; false when it failed with `error`.
    public var isDone: Bool
    /// Why the scan failed.
    public var error: String?
    /// Fingerprint of the key the recording was scanned with.
    public var keyFingerprint: String
    /// Seconds its header declared when more than `duration` was there (a cut recording).
    public var declaredDuration: Double?
    /// The reader's one-line report of what a damaged recording lost.
    public var damage: String?
    /// The identity of the channel's previous recording it was read on from, empty when it
    /// had none; nil when not recorded (databases before schema version 3).
    public var junction: String?

    /// Makes a stored recording record.
    public init(id: Int64, file: RecordingFile, duration: Double?, channel: String?, wallclockStart: WallClockTime?,
                isDone: Bool, error: String?, keyFingerprint: String, declaredDuration: Double? = nil, damage: String? = nil,
                junction: String? = nil) {
        self.id = id
        self.file = file
        self.duration = duration
        self.channel = channel
        self.wallclockStart = wallclockStart
        self.isDone = isDone
        self.error = error
        self.keyFingerprint = keyFingerprint
        self.declaredDuration = declaredDuration
        self.damage = damage
        self.junction = junction
    }

    /// The wall-clock stretch whose audio was decoded, when start and length are known.
    public var coveredSpan: ClosedRange<Double>? {
        guard isDone, let start = wallclockStart?.secondsSinceEpoch, let duration else { return nil }
        return start...(start + duration)
    }

    /// The stretch the recording was meant to cover: its decoded span, extended to the
    /// declared length when it was cut short.
    public var intendedSpan: ClosedRange<Double>? {
        guard let covered = coveredSpan else { return nil }
        return covered.lowerBound...max(covered.upperBound, covered.lowerBound + (declaredDuration ?? 0))
    }
}

/// A scan run, stored for provenance (never the key itself).
public struct ScanRun: Sendable, Equatable {
    /// Unique id of the run.
    public var uuid: String
    /// When it started.
    public var startedAt: WallClockTime
    /// QixKit's version.
    public var qixkitVersion: String
    /// Public fingerprint of the key used.
    public var keyFingerprint: String
    /// The machine's name.
    public var host: String
    /// `K/N` when the run was one shard of several.
    public var shard: String?

    /// Makes a scan run record.
    public init(uuid: String, startedAt: WallClockTime, qixkitVersion: String, keyFingerprint: String,
                host: String, shard: String?) {
        self.uuid = uuid
        self.startedAt = startedAt
        self.qixkitVersion = qixkitVersion
        self.keyFingerprint = keyFingerprint
        self.host = host
        self.shard = shard
    }
}
