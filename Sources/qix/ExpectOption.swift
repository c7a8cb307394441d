import Foundation
import QixWatermark

/// Parses `--expect`: IDs the listener knows are on air, each 8 hex digits, comma
/// separated or repeated.
enum ExpectOption {
    /// The IDs in `values` (each may hold several, comma separated), without repeats.
    static func parse(_ values: [String]) throws -> [UInt32] {
        var ids: [UInt32] = []
        // Empty items kept, so `--expect ''` (an empty campaign list in a script) or a stray
        // comma is refused below instead of silently searching blind.
        for item in CommaList.items(values) {
            // The same 8-hex-digit rule as `--message`, reported against this option.
            guard let id = try? WatermarkPayload(hex: item).message else {
                throw CommandFailure("invalid option", "--expect", "expected IDs of exactly 8 hex digits, got '\(item)'")
            }
            if !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    /// Warns when `--session` was given without `--expect`: the session lowers only the expected
    /// IDs' threshold, so it changes nothing.
    static func warnIfSessionWithoutExpected(session: Bool, expected: [UInt32]) {
        if session && expected.isEmpty {
            StandardError.warning("--session lowers only the expected IDs' threshold, and no --expect was given")
        }
    }

    /// The help line shared by the commands that take `--expect`.
    static let help = "IDs known to be on air (8 hex digits, comma separated or repeated): each is also looked for by its whole pattern, which hears it at much lower levels than a blind search."
}
