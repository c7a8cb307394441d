import GRDB

/// What `merge(from:)` did.
public struct MergeSummary: Sendable, Equatable {
    /// Recordings copied in (new paths, or newer or successful versions of known ones).
    public var recordingsAdded = 0
    /// Recordings already present in the same state.
    public var recordingsUnchanged = 0
    /// Recordings kept because the target held a newer or better version.
    public var recordingsKept = 0
    /// Scan runs copied in.
    public var runsAdded = 0
}

extension AiringsDatabase {
    /// Copies another database's runs, recordings (with their coverage) and detections into this one,
    /// idempotently: merging the same input twice changes nothing the second time, and
    /// shards of one scan merge into exactly the rows of an unsharded scan.
    ///
    /// When both hold the same path, a successful scan beats a failed one, then the newer
    /// file (modification time) wins; equal rows are left alone.
    public func merge(from other: AiringsDatabase) throws -> MergeSummary {
        var summary = MergeSummary()
        let incoming = try other.recordings()
        let detections = Dictionary(grouping: try other.detections(), by: { $0.recording.id })
        let runs = try other.runs()
        let (finishedAt, scanUUIDs) = try other.read { db -> ([String: String?], [Int64: String]) in
            let finished = try Row.fetchAll(db, sql: "SELECT uuid, finished_at FROM scans")
                .map { row -> (String, String?) in (row["uuid"], row["finished_at"]) }
            let uuids = try Row.fetchAll(db, sql: "SELECT id, scan_uuid FROM recordings")
                .map { row -> (Int64, String) in (row["id"], row["scan_uuid"]) }
            return (Dictionary(finished, uniquingKeysWith: { a, _ in a }), Dictionary(uuids, uniquingKeysWith: { a, _ in a }))
        }
        try write { db in
            try Self.mergeRuns(db, runs: runs, finishedAt: finishedAt, into: &summary)
            for recording in incoming {
                try Self.mergeRecording(db, recording, detections: (detections[recording.id] ?? []).map(\.detection),
                                        scanUUID: scanUUIDs[recording.id] ?? "", into: &summary)
            }
        }
        return summary
    }

    /// The other database's scan runs, each once, with their finish times where this one has none.
    private static func mergeRuns(_ db: Database, runs: [ScanRun], finishedAt: [String: String?],
                                  into summary: inout MergeSummary) throws {
        for run in runs {
            try db.execute(sql: """
                INSERT OR IGNORE INTO scans (uuid, started_at, qixkit_version, key_fingerprint, host, shard)
                VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [run.uuid, run.startedAt.iso8601, run.qixkitVersion, run.keyFingerprint, run.host, run.shard])
            summary.runsAdded += db.changesCount
        }
        for (uuid, at) in finishedAt.sorted(by: { $0.key < $1.key }) {
            try db.execute(sql: "UPDATE scans SET finished_at = coalesce(finished_at, ?) WHERE uuid = ?", arguments: [at, uuid])
        }
    }

    /// One incoming recording: left alone when equal, kept when this one's wins (done over
    /// failed, then the newer file), else replaced with its detections.
    private static func mergeRecording(_ db: Database, _ recording: StoredRecording, detections: [ScanDetection],
                                       scanUUID: String, into summary: inout MergeSummary) throws {
        if let own = try Row.fetchOne(db, sql: "SELECT * FROM recordings WHERE path = ?", arguments: [recording.file.path])
            .map(AiringsDatabase.recording) {
            var comparable = own
            comparable.id = recording.id
            if comparable == recording, try detectionCount(db, own.id) == detections.count {
                summary.recordingsUnchanged += 1
                return
            }
            let incomingWins = (recording.isDone && !own.isDone)
                || (recording.isDone == own.isDone && recording.file.modificationTime >= own.file.modificationTime)
            if !incomingWins {
                summary.recordingsKept += 1
                return
            }
            try db.execute(sql: "DELETE FROM recordings WHERE id = ?", arguments: [own.id])
        }
        let id = try AiringsDatabase.insert(db, recording, scanUUID: scanUUID)
        for d in detections {
            try db.execute(sql: """
                INSERT INTO detections (recording_id, message, start, "end", score) VALUES (?, ?, ?, ?, ?)
                """, arguments: [id, d.message, d.start, d.end, d.score])
        }
        summary.recordingsAdded += 1
    }

    private static func detectionCount(_ db: Database, _ recordingID: Int64) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM detections WHERE recording_id = ?", arguments: [recordingID]) ?? 0
    }
}
