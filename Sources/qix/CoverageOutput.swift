import QixMarkup
import QixScan

/// `qix report --coverage` in its three forms: a table, one JSON object per channel per
/// line, or CSV with a row per channel and a row per gap.
enum CoverageOutput {
    /// The CSV header: one row per channel (`kind` = `channel`), then one per gap (`gap`).
    static let csvHeader = "channel,kind,start,end,seconds,hours,recordings,failed,airings,airings_per_hour,cause"

    /// Hours and rates are derived numbers: 6 and 3 decimals say all they can.
    static func rounded(_ value: Double?, _ decimals: Int) -> Double? {
        guard let value else { return nil }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    /// One channel as a JSON object.
    static func json(_ c: ChannelCoverage) -> String {
        var line = JSONLine()
        line.add("channel", c.channel)
        line.add("start", c.start?.iso8601)
        line.add("end", c.end?.iso8601)
        line.add("recordings", c.recordings)
        line.add("failed", c.failed)
        line.add("monitored_seconds", c.monitoredSeconds)
        line.add("monitored_hours", rounded(c.monitoredHours, 6))
        line.add("gap_seconds", c.gapSeconds)
        line.addRaw("gaps", JSONLine.array(c.gaps.map { gap in
            var object = JSONLine()
            object.add("start", gap.start.iso8601)
            object.add("end", gap.end.iso8601)
            object.add("seconds", gap.seconds)
            object.add("cause", gap.cause.rawValue)
            return object.string
        }))
        line.add("airings", c.airings)
        line.add("airings_per_hour", rounded(c.airingsPerHour, 3))
        return line.string
    }

    /// One channel's CSV rows: the channel, then each gap.
    static func csv(_ c: ChannelCoverage) -> [String] {
        let name = CSV.field(c.channel ?? "")
        let channel = [name, "channel", c.start?.iso8601 ?? "", c.end?.iso8601 ?? "", JSONLine.number(c.monitoredSeconds),
                       JSONLine.number(rounded(c.monitoredHours, 6)), String(c.recordings), String(c.failed),
                       String(c.airings), c.airingsPerHour.map { JSONLine.number(rounded($0, 3)) } ?? "", ""]
        return [channel.joined(separator: ",")] + c.gaps.map { gap in
            [name, "gap", gap.start.iso8601, gap.end.iso8601, JSONLine.number(gap.seconds),
             JSONLine.number(rounded(gap.seconds / 3600, 6)), "", "", "", "", CSV.field(gap.cause.rawValue)].joined(separator: ",")
        }
    }

    /// One channel as text: a summary line, then an indented line per gap.
    static func text(_ c: ChannelCoverage) -> [String] {
        let period = c.start.map { start in "\(start.iso8601) to \(c.end?.iso8601 ?? "-")" } ?? "start unknown"
        let rate = c.airingsPerHour.map { " (\(fixed($0, 1)) per hour)" } ?? ""
        let failed = c.failed > 0 ? ", \(c.failed) failed" : ""
        let gaps = c.gaps.isEmpty ? "no gaps" : "\(c.gaps.count) gap\(c.gaps.count == 1 ? "" : "s") \(fixed(c.gapSeconds, 1)) s"
        var lines = ["\(c.channel ?? "(none)")  \(period)  monitored \(fixed(c.monitoredHours, 3)) h (\(fixed(c.monitoredSeconds, 1)) s)"
                     + " in \(c.recordings) recording\(c.recordings == 1 ? "" : "s")\(failed), \(gaps),"
                     + " \(c.airings) airing\(c.airings == 1 ? "" : "s")\(rate)"]
        for gap in c.gaps {
            lines.append("  gap  \(gap.start.iso8601) to \(gap.end.iso8601)  \(fixed(gap.seconds, 1)) s  \(gap.cause.rawValue)")
        }
        return lines
    }
}
