/// The airings database as QixKit 0.1.0 wrote it (schema version 1), written out by hand
/// so that the upgrade tests open a database the current code did not make.
public enum AiringsVersion1 {
    /// The version 1 tables and indexes; fixtures append their rows and
    /// `PRAGMA user_version = 1`.
    public static let tables = """
        CREATE TABLE scans (id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, started_at TEXT NOT NULL, finished_at TEXT,
          qixkit_version TEXT NOT NULL, key_fingerprint TEXT NOT NULL, host TEXT NOT NULL, shard TEXT);
        CREATE TABLE recordings (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime REAL NOT NULL,
          fingerprint TEXT NOT NULL, duration REAL, channel TEXT, wallclock_start TEXT,
          status TEXT NOT NULL CHECK (status IN ('done', 'failed')), error TEXT, key_fingerprint TEXT NOT NULL, scan_uuid TEXT NOT NULL);
        CREATE TABLE detections (id INTEGER PRIMARY KEY, recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
          message TEXT NOT NULL, start REAL NOT NULL, "end" REAL NOT NULL, score REAL NOT NULL);
        CREATE INDEX detections_by_recording ON detections(recording_id, start);
        CREATE INDEX recordings_by_channel ON recordings(channel, wallclock_start);

        """
}
