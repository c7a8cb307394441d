import Foundation
import GRDB

/// The SQLite store of a scan: scan runs, recordings (with their on-disk identity and
/// outcome) and the detections in each.
///
/// WAL journaling and one transaction per recording make scans crash-safe: a recording's
/// detections and its "done" mark land together or not at all, so `kill -9` loses at
/// most the recordings in flight. Safe to share between threads.
public final class AiringsDatabase: Sendable {
    /// The database file.
    public let path: String
    let queue: DatabaseQueue

    /// Opens (and with `create`, makes) the database at `path`, refusing files that are
    /// not SQLite, SQLite files of other programs, and databases of a newer schema,
    /// without writing to them.
    public init(path: String, create: Bool = true, readOnly: Bool = false) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if isDirectory.boolValue { throw ScanError("cannot open database", path, "is a directory") }
        if !exists && (!create || readOnly) { throw ScanError("cannot open database", path, "no such file") }
        let holdsData = exists ? try Self.checkHeader(path) : false
        // Opening for writing switches the file to WAL: refuse a foreign or newer database
        // from a read-only look first, so it is never touched.
        if holdsData && !readOnly { try Self.checkSchemaReadOnly(path) }
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.journalMode = readOnly ? .default : .wal
        configuration.busyMode = .timeout(30)
        configuration.foreignKeysEnabled = true
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            if readOnly {
                try queue.read { db in
                    let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                    if version > AiringsSchema.version {
                        throw ScanError("cannot use database", path,
                                        "its schema version \(version) is newer than this qix supports (\(AiringsSchema.version)); upgrade QixKit")
                    }
                    if version == 0 { throw ScanError("cannot use database", path, "not a qix airings database") }
                }
            } else {
                try queue.write { try AiringsSchema.migrate($0, subject: path) }
            }
        } catch let error as ScanError {
            throw error
        } catch let error as DatabaseError {
            throw ScanError("cannot open database", path, error.message ?? "\(error.resultCode)")
        }
    }

    /// The schema checks of `AiringsSchema.check` through a read-only connection.
    private static func checkSchemaReadOnly(_ path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        do {
            let probe = try DatabaseQueue(path: path, configuration: configuration)
            _ = try probe.read { try AiringsSchema.check($0, subject: path) }
            try probe.close()
        } catch let error as ScanError {
            throw error
        } catch let error as DatabaseError {
            throw ScanError("cannot open database", path, error.message ?? "\(error.resultCode)")
        }
    }

    /// An existing non-empty file must start with SQLite's magic header: checked before
    /// SQLite touches it, so a wrong file is never altered. Returns false for an empty file.
    private static func checkHeader(_ path: String) throws -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ScanError("cannot open database", path, "permission denied")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        if header.isEmpty { return false }
        guard header == Data("SQLite format 3\0".utf8) else {
            throw ScanError("cannot open database", path, "not an SQLite database")
        }
        return true
    }

    /// Records the start of a scan run.
    public func begin(_ run: ScanRun) throws {
        try write { db in
            try db.execute(sql: """
                INSERT INTO scans (uuid, started_at, qixkit_version, key_fingerprint, host, shard)
                VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [run.uuid, run.startedAt.iso8601, run.qixkitVersion, run.keyFingerprint, run.host, run.shard])
        }
    }

    /// Marks a scan run finished.
    public func finish(runUUID: String, at time: WallClockTime) throws {
        try write { db in
            try db.execute(sql: "UPDATE scans SET finished_at = ? WHERE uuid = ?", arguments: [time.iso8601, runUUID])
        }
    }

    /// The stored recording at `path`, if any.
    public func recording(path: String) throws -> StoredRecording? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM recordings WHERE path = ?", arguments: [path]).map(Self.recording) }
    }

    /// True when `file` was already scanned successfully, unchanged, with the same key, and
    /// read on from the same `junction` (`ChannelSequence.junctionIdentity(before:)`; a row
    /// that did not record one counts as the same).
    public func isUpToDate(_ file: RecordingFile, keyFingerprint: String, junction: String = "") throws -> Bool {
        guard let stored = try recording(path: file.path) else { return false }
        return stored.isDone && stored.file == file && stored.keyFingerprint == keyFingerprint
            && (stored.junction == nil || stored.junction == junction)
    }

    /// Stores one recording's outcome and its detections in one transaction, replacing
    /// whatever an earlier scan stored for the same path.
    public func store(file: RecordingFile, channel: String?, wallclockStart: WallClockTime?,
                      outcome: Result<RecordingAnalysis, ScanError>, keyFingerprint: String, junction: String = "",
                      runUUID: String) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM recordings WHERE path = ?", arguments: [file.path])
            let analysis = try? outcome.get()
            var failure: String?
            if case .failure(let error) = outcome { failure = error.description }
            let row = StoredRecording(id: 0, file: file, duration: analysis?.duration, channel: channel,
                                      wallclockStart: wallclockStart, isDone: analysis != nil, error: failure,
                                      keyFingerprint: keyFingerprint, declaredDuration: analysis?.declaredDuration,
                                      damage: analysis?.damage, junction: junction)
            let id = try Self.insert(db, row, scanUUID: runUUID)
            for d in analysis?.detections ?? [] {
                try db.execute(sql: """
                    INSERT INTO detections (recording_id, message, start, "end", score) VALUES (?, ?, ?, ?, ?)
                    """, arguments: [id, d.message, d.start, d.end, d.score])
            }
        }
    }

    /// Inserts one recording row (without its detections) and returns its row id; the one
    /// place that writes the columns, for scans and merges alike.
    static func insert(_ db: Database, _ recording: StoredRecording, scanUUID: String) throws -> Int64 {
        try db.execute(sql: """
            INSERT INTO recordings (path, size, mtime, fingerprint, duration, channel, wallclock_start,
                                    status, error, key_fingerprint, scan_uuid, wallclock_end, declared_duration, damage,
                                    junction)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [recording.file.path, recording.file.size, recording.file.modificationTime,
                             recording.file.fingerprint, recording.duration, recording.channel,
                             recording.wallclockStart?.iso8601, recording.isDone ? "done" : "failed", recording.error,
                             recording.keyFingerprint, scanUUID,
                             AiringsSchema.wallclockEnd(start: recording.wallclockStart, duration: recording.duration),
                             recording.declaredDuration, recording.damage, recording.junction])
        return db.lastInsertedRowID
    }

    /// Every stored recording, ordered by path.
    public func recordings() throws -> [StoredRecording] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM recordings ORDER BY path").map(Self.recording) }
    }

    /// Every detection with its recording, ordered by recording path then start.
    public func detections() throws -> [(recording: StoredRecording, detection: ScanDetection)] {
        try read { db in
            let recordings = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT * FROM recordings")
                .map { row -> (Int64, StoredRecording) in let r = Self.recording(row); return (r.id, r) })
            return try Row.fetchAll(db, sql: """
                SELECT d.recording_id, d.message, d.start, d."end", d.score FROM detections d
                JOIN recordings r ON r.id = d.recording_id ORDER BY r.path, d.start, d.message
                """).compactMap { row in
                guard let recording = recordings[row["recording_id"]] else { return nil }
                return (recording, ScanDetection(message: row["message"], start: row["start"], end: row["end"], score: row["score"]))
            }
        }
    }

    /// Every scan run, oldest first.
    public func runs() throws -> [ScanRun] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM scans ORDER BY started_at, uuid").map { row in
                ScanRun(uuid: row["uuid"], startedAt: WallClockTime(iso8601: row["started_at"]) ?? WallClockTime(secondsSinceEpoch: 0),
                        qixkitVersion: row["qixkit_version"], keyFingerprint: row["key_fingerprint"],
                        host: row["host"], shard: row["shard"])
            }
        }
    }

    static func recording(_ row: Row) -> StoredRecording {
        let file = RecordingFile(stored: row["path"], size: row["size"], modificationTime: row["mtime"], fingerprint: row["fingerprint"])
        let start: String? = row["wallclock_start"]
        let status: String = row["status"]
        // An older database opened read-only lacks the newer columns: they read as nil.
        return StoredRecording(id: row["id"], file: file, duration: row["duration"], channel: row["channel"],
                               wallclockStart: start.flatMap(WallClockTime.init(iso8601:)), isDone: status == "done",
                               error: row["error"], keyFingerprint: row["key_fingerprint"],
                               declaredDuration: row["declared_duration"], damage: row["damage"], junction: row["junction"])
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try queue.read(body) } catch let error as DatabaseError {
            throw ScanError("cannot read database", path, error.message ?? "\(error.resultCode)")
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try queue.write(body) } catch let error as DatabaseError {
            throw ScanError("cannot write database", path, error.message ?? "\(error.resultCode)")
        }
    }
}

extension RecordingFile {
    /// Rebuilds an identity from stored values, without touching the disk.
    public init(stored path: String, size: Int64, modificationTime: Double, fingerprint: String) {
        self.path = path
        self.size = size
        self.modificationTime = modificationTime
        self.fingerprint = fingerprint
    }
}
