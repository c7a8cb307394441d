import GRDB

/// The airings database's tables, and the migrations that build them.
///
/// The schema version lives in SQLite's `user_version`, so a database written by a newer
/// QixKit is recognised and refused instead of being misread or altered.
enum AiringsSchema {
    /// The version this build writes and reads.
    static let version = 1

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

    /// Brings `db` to `version`, or refuses a database from a newer schema.
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

    static func migrate(_ db: Database, subject: String) throws {
        let found = try check(db, subject: subject)
        if found == 0 {
            try createVersion1(db)
            try db.execute(sql: "PRAGMA user_version = \(version)")
        }
    }
}
