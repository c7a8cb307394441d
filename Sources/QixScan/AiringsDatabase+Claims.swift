import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// A process that may scan a recording: the host it runs on and its pid.
public struct ScanClaimant: Sendable, Equatable {
    /// The host name, as `ProcessInfo` gives it.
    public var host: String
    /// The process id on that host.
    public var pid: Int32

    /// Makes a claimant.
    public init(host: String, pid: Int32) {
        self.host = host
        self.pid = pid
    }

    /// This process.
    public static var current: ScanClaimant { ScanClaimant(host: ProcessInfo.processInfo.hostName, pid: getpid()) }

    /// Whether a process of this host with `pid` still runs (EPERM: it runs as another user).
    public static func isRunning(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno == EPERM }
}

/// Claims: two scans into one database at once share the work. A scan claims a recording
/// before reading it and releases it once its outcome is stored; a recording claimed by
/// another running scan is left to it. A claim whose process has died on this host is
/// taken over; claims of other hosts are honoured (their liveness cannot be seen from here)
/// until a scan from that host runs again.
extension AiringsDatabase {
    /// The claims table; an extra table leaves schema version 1 readable by every release.
    static func createClaimsTable(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS claims (
                path TEXT PRIMARY KEY,
                host TEXT NOT NULL,
                pid INTEGER NOT NULL,
                claimed_at REAL NOT NULL
            )
            """)
    }

    /// Claims `path` for `claimant`; false when another running scan holds it.
    public func claim(_ path: String, for claimant: ScanClaimant,
                      isRunning: (Int32) -> Bool = ScanClaimant.isRunning) throws -> Bool {
        try write { db in
            try Self.createClaimsTable(db)
            if let row = try Row.fetchOne(db, sql: "SELECT host, pid FROM claims WHERE path = ?", arguments: [path]) {
                let holder = ScanClaimant(host: row["host"], pid: row["pid"])
                if holder == claimant { return true }
                // Only this host's processes can be seen to have died.
                guard holder.host == claimant.host, !isRunning(holder.pid) else { return false }
                try db.execute(sql: "DELETE FROM claims WHERE path = ?", arguments: [path])
            }
            try db.execute(sql: "INSERT INTO claims (path, host, pid, claimed_at) VALUES (?, ?, ?, ?)",
                           arguments: [path, claimant.host, claimant.pid, Date().timeIntervalSince1970])
            return true
        }
    }

    /// Releases `claimant`'s claim on `path`, if it holds one.
    public func release(_ path: String, for claimant: ScanClaimant) throws {
        try write { db in
            try Self.createClaimsTable(db)
            try db.execute(sql: "DELETE FROM claims WHERE path = ? AND host = ? AND pid = ?",
                           arguments: [path, claimant.host, claimant.pid])
        }
    }

    /// The claims held now, by path.
    public func claims() throws -> [String: ScanClaimant] {
        try write { db in
            try Self.createClaimsTable(db)
            var result: [String: ScanClaimant] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, host, pid FROM claims") {
                result[row["path"]] = ScanClaimant(host: row["host"], pid: row["pid"])
            }
            return result
        }
    }
}
