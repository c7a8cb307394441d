import QixMarkup

/// The timeline page's tables: the figures behind the drawing, to read exactly and to copy.
/// Rows carry their channel and ID so the page's filters hide them with the marks.
extension AiringsTimelinePage {
    /// A table of each channel's monitored hours, gaps and airings per hour.
    static func coverageTable(_ coverage: [ChannelCoverage]) -> String {
        guard !coverage.isEmpty else { return "" }
        var rows = ""
        for c in coverage {
            let name = XMLText.escape(c.channel ?? "(no channel)")
            let gaps = c.gaps.map { "\($0.start.iso8601) to \($0.end.iso8601) (\(fmt($0.seconds)) s, \($0.cause.rawValue))" }
            rows += "<tr data-channel=\"\(name)\"><td>\(name)</td><td>\(c.start?.iso8601 ?? "")</td><td>\(c.end?.iso8601 ?? "")</td>"
            rows += "<td>\(fmt(c.monitoredHours))</td><td>\(gaps.isEmpty ? "none" : gaps.joined(separator: "<br>"))</td>"
            rows += "<td>\(c.airings)</td><td>\(c.airingsPerHour.map(fmt) ?? "")</td></tr>\n"
        }
        return """
            <h2>Coverage</h2>
            <table class="coverage"><thead><tr><th>channel</th><th>from</th><th>to</th><th>monitored (h)</th><th>gaps</th><th>airings</th><th>per hour</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>
            <p>Green: monitored. Red: no audio decoded (not recorded, a damaged recording, or a failed scan).</p>
            """
    }

    /// A row per airing, in the order the report lists them.
    static func airingsTable(_ airings: [Airing]) -> String {
        var rows = ""
        for a in airings {
            let channel = XMLText.escape(a.channel ?? "(no channel)")
            rows += "<tr data-id=\"\(XMLText.escape(a.id))\" data-channel=\"\(channel)\"><td><code>\(XMLText.escape(a.id))</code></td>"
            rows += "<td>\(XMLText.escape(a.channel ?? ""))</td><td>\(a.wallclockStart?.iso8601 ?? "")</td>"
            rows += "<td>\(XMLText.escape(a.recording))</td><td>\(fmt(a.start))</td><td>\(fmt(a.end))</td><td>\(fmt(a.score))</td></tr>\n"
        }
        return """
            <h2>Airings</h2>
            <table class="airings"><thead><tr><th>ID</th><th>channel</th><th>wall-clock start</th><th>recording</th><th>start (s)</th><th>end (s)</th><th>score</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>
            """
    }

    /// Numbers to two decimals, without a trailing `.0`.
    static func fmt(_ value: Double) -> String { TimelineChart.fmt(value) }
}
