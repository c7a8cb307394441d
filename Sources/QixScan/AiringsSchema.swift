import GRDB

/// The airings database's tables, and the migrations that build them.
///
/// The schema version lives in SQLite's `user_version`, so a database written by a newer
/// QixKit is recognised and refused instead of being misread or altered.
enum AiringsSchema {
    /// The version this build writes and reads: 2 adds each recording's coverage
    /// (`wallclock_end`, `declared_duration`, `damage`), 3 the junction a recording was read
    /// on from (`junction`).
    static let version = 3

    /// Creates every table of version 1 in an empty database.
    static func createVersion1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE scans (
                id INTEGER PRIMARY KEY,
                uuid TEXT NOT NULL UNIQUE,
                started_at TEXT NOT NULL,
                finished_at TEXT,
                qixkit_version TEXT NOT NULL,
                key_fingerprint TEXT NOT NULL,
                host TEXT NOT NULL,
                shard TEXT
            );
            CREATE TABLE recordings (
                id INTEGER PRIMARY KEY,
                path TEXT NOT NULL UNIQUE,
                size INTEGER NOT NULL,
                mtime REAL NOT NULL,
                fingerprint TEXT NOT NULL,
                duration REAL,
                channel TEXT,
                wallclock_start TEXT,
                status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
                error TEXT,
                key_fingerprint TEXT NOT NULL,
                scan_uuid TEXT NOT NULL
            );
            CREATE TABLE detections (
                id INTEGER PRIMARY KEY,
                recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
                message TEXT NOT NULL,
                start REAL NOT NULL,
                "end" REAL NOT NULL,
                score REAL NOT NULL
            );
            CREATE INDEX detections_by_recording ON detections(recording_id, start);
            CREATE INDEX recordings_by_channel ON recordings(channel, wallclock_start);
            """)
    }

    /// The schema version of `db` (0 for an empty database), after refusing, without
    /// writing anything, a newer schema or another program's database.
    @discardableResult
    static func check(_ db: Database, subject: String) throws -> Int {
        let found = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if found > version {
            throw ScanError("cannot use database", subject,
                            "its schema version \(found) is newer than this qix supports (\(version)); upgrade QixKit")
        }
        if found == 0 {
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0
            guard tables == 0 else {
                throw ScanError("cannot use database", subject, "it is an SQLite database of another program, not a qix airings database")
            }
        }
        return found
    }

    /// Brings `db` to `version` step by step, in the caller's transaction, so an older
    /// database is upgraded in place with its rows kept, or not at all.
    static func migrate(_ db: Database, subject: String) throws {
        let found = try check(db, subject: subject)
        if found == version { return }
        if found < 1 { try createVersion1(db) }
        if found < 2 { try addCoverage(db) }
        if found < 3 { try addJunction(db) }
        try db.execute(sql: "PRAGMA user_version = \(version)")
    }

    /// Version 2: what each recording covers on the wall clock. `duration` already holds the
    /// seconds decoded; a cut recording also keeps the length its header declared and the
    /// reader's damage report. Rows of version 1 get their end from start and duration
    /// (their damage was not recorded).
    static func addCoverage(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE recordings ADD COLUMN wallclock_end TEXT;
            ALTER TABLE recordings ADD COLUMN declared_duration REAL;
            ALTER TABLE recordings ADD COLUMN damage TEXT;
            """)
        let spans = try Row.fetchAll(db, sql: """
            SELECT id, wallclock_start, duration FROM recordings WHERE wallclock_start IS NOT NULL AND duration IS NOT NULL
            """)
        for row in spans {
            let start: String = row["wallclock_start"]
            guard let end = wallclockEnd(start: WallClockTime(iso8601: start), duration: row["duration"]) else { continue }
            try db.execute(sql: "UPDATE recordings SET wallclock_end = ? WHERE id = ?", arguments: [end, row["id"] as Int64])
        }
    }

    /// Version 3: the identity of the channel's previous recording that a recording was read
    /// on from (`ChannelSequence.junctionIdentity(before:)`; empty when it had none), so that a
    /// recording is scanned again when that one changes or first appears. Rows of older
    /// versions hold null: not recorded, and not a reason to scan them again.
    static func addJunction(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE recordings ADD COLUMN junction TEXT")
    }

    /// The stored `wallclock_end`: the wall-clock time of the last decoded sample's end.
    static func wallclockEnd(start: WallClockTime?, duration: Double?) -> String? {
        guard let start, let duration else { return nil }
        return start.adding(duration).iso8601
    }
}
