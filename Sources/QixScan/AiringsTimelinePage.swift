import QixMarkup

/// A self-contained HTML page showing airings on a timeline: one lane per channel,
/// one coloured bar per airing, so a person sees at a glance when each spot aired, over
/// the band of time each channel was monitored, with its gaps marked.
///
/// Drawn as inline SVG by QixKit itself: no scripts, no external files.
public enum AiringsTimelinePage {
    /// Renders `airings` (only those with a wall-clock start are placed on the timeline;
    /// the others are listed in the table below it) over each channel's `coverage` (every
    /// channel in it gets a lane, airings or not).
    public static func render(_ airings: [Airing], coverage: [ChannelCoverage] = [], title: String) -> String {
        let ids = Array(Set(airings.map(\.id))).sorted()
        let (svg, channels) = timeline(airings, coverage: coverage, ids: ids)
        var legend = ""
        for id in ids {
            let count = airings.filter { $0.id == id }.count
            legend += "<li><span style=\"background:\(color(id, in: ids))\"></span><code>\(id)</code> \(count) airing\(count == 1 ? "" : "s")</li>\n"
        }
        var rows = ""
        for a in airings {
            rows += "<tr><td><code>\(a.id)</code></td><td>\(XMLText.escape(a.channel ?? ""))</td><td>\(a.wallclockStart?.iso8601 ?? "")</td>"
            rows += "<td>\(XMLText.escape(a.recording))</td><td>\(fmt(a.start))</td><td>\(fmt(a.end))</td><td>\(fmt(a.score))</td></tr>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(XMLText.escape(title))</title>
            <style>
            body{font-family:system-ui,sans-serif;margin:24px;color:#222}
            ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:16px}
            ul.legend span{display:inline-block;width:12px;height:12px;margin-right:6px;vertical-align:middle}
            table{border-collapse:collapse;font-size:13px}td,th{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left}
            </style></head><body>
            <h1>\(XMLText.escape(title))</h1>
            <p>\(airings.count) airing\(airings.count == 1 ? "" : "s") of \(ids.count) ID\(ids.count == 1 ? "" : "s") on \(channels) channel\(channels == 1 ? "" : "s"). Times are UTC.</p>
            \(svg)
            <ul class="legend">
            \(legend)</ul>
            \(coverageTable(coverage))
            <table><thead><tr><th>ID</th><th>channel</th><th>wall-clock start</th><th>recording</th><th>start (s)</th><th>end (s)</th><th>score</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>
            </body></html>

            """
    }

    /// The inline SVG: a lane per channel, its monitored band and gaps, six time ticks, a bar
    /// per airing with a wall-clock start; and how many channels it drew.
    private static func timeline(_ airings: [Airing], coverage: [ChannelCoverage], ids: [String]) -> (svg: String, channels: Int) {
        let timed = airings.compactMap { airing in airing.wallclockStart.map { (airing, $0.secondsSinceEpoch) } }
        let banded = coverage.filter { $0.start != nil && $0.end != nil }
        let channels = Array(Set(timed.map { $0.0.channel ?? "(no channel)" } + banded.map { $0.channel ?? "(no channel)" })).sorted()
        // The axis spans what was monitored as well as what aired.
        let first = (timed.map(\.1) + banded.compactMap { $0.start?.secondsSinceEpoch }).min() ?? 0
        let last = (timed.map { $0.1 + ($0.0.end - $0.0.start) } + banded.compactMap { $0.end?.secondsSinceEpoch }).max() ?? 1
        let span = max(60, last - first)
        let left = 140.0, width = 1000.0, lane = 28.0, top = 30.0
        let height = top + lane * Double(max(1, channels.count)) + 40
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(left + width + 20)) \(Int(height))\" role=\"img\" aria-label=\"airings timeline\">\n"
        for (row, channel) in channels.enumerated() {
            let y = top + lane * Double(row)
            svg += "<text x=\"\(left - 8)\" y=\"\(fmt(y + lane * 0.65))\" text-anchor=\"end\" font-size=\"12\">\(XMLText.escape(channel))</text>\n"
            svg += "<rect x=\"\(left)\" y=\"\(fmt(y + 2))\" width=\"\(width)\" height=\"\(fmt(lane - 4))\" fill=\"#f3f3f3\"/>\n"
        }
        for band in banded {
            let row = channels.firstIndex(of: band.channel ?? "(no channel)") ?? 0
            svg += coverageBand(band, y: top + lane * Double(row), lane: lane) { left + width * ($0 - first) / span }
        }
        for tick in 0...5 {
            let t = first + span * Double(tick) / 5
            let x = left + width * Double(tick) / 5
            let label = WallClockTime(secondsSinceEpoch: t).iso8601.replacingOccurrences(of: "T", with: " ")
            svg += "<line x1=\"\(fmt(x))\" y1=\"\(fmt(top - 4))\" x2=\"\(fmt(x))\" y2=\"\(fmt(height - 30))\" stroke=\"#ccc\"/>\n"
            svg += "<text x=\"\(fmt(x))\" y=\"\(fmt(height - 14))\" text-anchor=\"middle\" font-size=\"10\">\(XMLText.escape(String(label.prefix(19))))</text>\n"
        }
        for (airing, start) in timed {
            let row = channels.firstIndex(of: airing.channel ?? "(no channel)") ?? 0
            let x = left + width * (start - first) / span
            let w = max(2, width * (airing.end - airing.start) / span)
            let y = top + lane * Double(row) + 4
            svg += "<rect x=\"\(fmt(x))\" y=\"\(fmt(y))\" width=\"\(fmt(w))\" height=\"\(fmt(lane - 8))\" fill=\"\(color(airing.id, in: ids))\">"
            svg += "<title>\(airing.id) on \(XMLText.escape(airing.channel ?? "?")) at \(airing.wallclockStart?.iso8601 ?? ""), \(fmt(airing.end - airing.start)) s</title></rect>\n"
        }
        return (svg + "</svg>", channels.count)
    }

    /// One channel's monitored period as a green band, each gap over it as a red one with
    /// its times and cause in a tooltip; `x` maps epoch seconds to the drawing.
    private static func coverageBand(_ c: ChannelCoverage, y: Double, lane: Double, x: (Double) -> Double) -> String {
        guard let start = c.start?.secondsSinceEpoch, let end = c.end?.secondsSinceEpoch else { return "" }
        let name = XMLText.escape(c.channel ?? "(no channel)")
        var svg = "<rect class=\"coverage\" x=\"\(fmt(x(start)))\" y=\"\(fmt(y + 2))\" width=\"\(fmt(max(1, x(end) - x(start))))\" height=\"\(fmt(lane - 4))\" fill=\"#dcefd9\">"
        svg += "<title>\(name) monitored \(fmt(c.monitoredHours)) h from \(c.start!.iso8601) to \(c.end!.iso8601)</title></rect>\n"
        for gap in c.gaps {
            let a = x(gap.start.secondsSinceEpoch), b = x(gap.end.secondsSinceEpoch)
            svg += "<rect class=\"gap\" x=\"\(fmt(a))\" y=\"\(fmt(y + 2))\" width=\"\(fmt(max(1, b - a)))\" height=\"\(fmt(lane - 4))\" fill=\"#f4c7c3\">"
            svg += "<title>\(name) gap from \(gap.start.iso8601) to \(gap.end.iso8601), \(fmt(gap.seconds)) s, \(gap.cause.rawValue)</title></rect>\n"
        }
        return svg
    }

    /// A table of each channel's monitored hours, gaps and airings per hour.
    private static func coverageTable(_ coverage: [ChannelCoverage]) -> String {
        guard !coverage.isEmpty else { return "" }
        var rows = ""
        for c in coverage {
            let gaps = c.gaps.map { "\($0.start.iso8601) to \($0.end.iso8601) (\(fmt($0.seconds)) s, \($0.cause.rawValue))" }
            rows += "<tr><td>\(XMLText.escape(c.channel ?? "(no channel)"))</td><td>\(c.start?.iso8601 ?? "")</td><td>\(c.end?.iso8601 ?? "")</td>"
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

    private static let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]

    private static func color(_ id: String, in ids: [String]) -> String {
        palette[(ids.firstIndex(of: id) ?? 0) % palette.count]
    }

    private static func fmt(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    }

}

extension String {
    func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
