import QixMarkup

/// One channel's row of the timeline: what was monitored and what aired on it.
struct TimelineLane {
    /// The channel's name as shown ("(no channel)" for recordings without one).
    var name: String
    /// The channel's coverage, when it has recordings.
    var coverage: ChannelCoverage?
    /// Its airings with a wall-clock start, with their start and end in epoch seconds.
    var airings: [(airing: Airing, start: Double, end: Double)]
}

/// One timeline drawing: a lane per channel over one window of time, as inline SVG.
///
/// Every element carries its instants (`data-t0`, `data-t1`, epoch seconds) and lanes their
/// channel, so the page's script can zoom and filter by moving what is there; the drawing
/// as written is complete for a reader without scripts.
enum TimelineChart {
    /// Width kept for channel names, pixels.
    static let left = 150.0
    /// Width of the plot, pixels.
    static let width = 1000.0
    /// Room right of the plot, pixels (tick labels near the edge are flush against it).
    static let right = 24.0
    /// Height of a lane, pixels.
    static let lane = 28.0
    /// Space above the first lane, pixels.
    static let top = 6.0
    /// Space below the last lane for the two lines of tick labels, pixels.
    static let axisHeight = 34.0
    /// Font size of channel names.
    static let nameSize = 12.0

    /// The SVG of `lanes` over [`from`, `to`), bars coloured by `colors` (ID to colour).
    static func svg(_ lanes: [TimelineLane], from: Double, to: Double, colors: [String: String], label: String) -> String {
        let total = left + width + right
        let height = top + lane * Double(lanes.count) + axisHeight
        var svg = "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(fmt(total))\" height=\"\(fmt(height))\""
        svg += " viewBox=\"0 0 \(fmt(total)) \(fmt(height))\" data-from=\"\(fmt(from))\" data-to=\"\(fmt(to))\""
        svg += " role=\"img\" aria-label=\"\(XMLText.escape(label))\">\n"
        for (row, channel) in lanes.enumerated() {
            svg += laneGroup(channel, y: top + lane * Double(row), from: from, to: to, colors: colors)
        }
        // Over the lanes, so the grid shows through the bands; thin, so marks stay readable.
        return svg + ticks(from: from, to: to, lanes: lanes.count) + "</svg>\n"
    }

    /// The grid lines and their labels, two lines each (time, and the date where it changes).
    static func ticks(from: Double, to: Double, lanes: Int) -> String {
        let bottom = top + lane * Double(lanes)
        var svg = "<g class=\"ticks\">"
        for tick in TimelineAxis(from: from, to: to, width: width).ticks {
            let x = left + width * (tick.seconds - from) / (to - from)
            // Each line placed on its own: a long date flush against the edge must not push
            // its short time onto the previous tick's.
            let bounds = 2...(left + width + right - 2)
            let place = TimelineAxis.placeLabel(x: x, width: TimelineAxis.textWidth(tick.label), within: bounds)
            svg += "<line x1=\"\(fmt(x))\" y1=\"\(fmt(top))\" x2=\"\(fmt(x))\" y2=\"\(fmt(bottom + 4))\"/>"
            svg += "<text x=\"\(fmt(place.x))\" y=\"\(fmt(bottom + 15))\" text-anchor=\"\(place.anchor)\">\(tick.label)</text>"
            if let date = tick.date {
                let under = TimelineAxis.placeLabel(x: x, width: TimelineAxis.textWidth(date), within: bounds)
                svg += "<text class=\"date\" x=\"\(fmt(under.x))\" y=\"\(fmt(bottom + 28))\" text-anchor=\"\(under.anchor)\">\(date)</text>"
            }
        }
        return svg + "</g>\n"
    }

    /// One lane: the name (shortened to fit, whole in its tooltip), the background, the
    /// monitored band and its gaps, and a mark per airing in the window.
    static func laneGroup(_ channel: TimelineLane, y: Double, from: Double, to: Double, colors: [String: String]) -> String {
        let name = XMLText.escape(channel.name)
        let scale = { (t: Double) in left + width * (min(max(t, from), to) - from) / (to - from) }
        var svg = "<g class=\"lane\" data-channel=\"\(name)\" transform=\"translate(0 \(fmt(y)))\">"
        svg += "<text class=\"channel\" x=\"\(fmt(left - 8))\" y=\"\(fmt(lane * 0.62))\" text-anchor=\"end\">"
        svg += "<title>\(name)</title>\(XMLText.escape(shortened(channel.name)))</text>"
        svg += "<rect class=\"lane-bg\" x=\"\(fmt(left))\" y=\"1\" width=\"\(fmt(width))\" height=\"\(fmt(lane - 2))\"/>\n"
        if let c = channel.coverage { svg += coverage(c, name: name, scale: scale, from: from, to: to) }
        let shown = channel.airings.filter { overlaps($0.start, $0.end, from, to) }.sorted { ($0.start, $0.airing.id) < ($1.start, $1.airing.id) }
        let spans = shown.map { (x: scale($0.start), width: scale($0.end) - scale($0.start)) }
        for (entry, mark) in zip(shown, TimelineMarks.place(spans, within: left...(left + width))) {
            let a = entry.airing
            svg += "<rect class=\"airing\" data-id=\"\(XMLText.escape(a.id))\" data-t0=\"\(fmt(entry.start))\" data-t1=\"\(fmt(entry.end))\""
            svg += " x=\"\(fmt(mark.x))\" y=\"5\" width=\"\(fmt(mark.width))\" height=\"\(fmt(lane - 10))\" fill=\"\(colors[a.id] ?? "#333")\">"
            svg += "<title>\(XMLText.escape(a.id)) on \(name) at \(a.wallclockStart?.iso8601 ?? ""), \(fmt(a.end - a.start)) s</title></rect>\n"
        }
        return svg + "</g>\n"
    }

    /// The monitored band (green) and each gap (red) with its times and cause in a tooltip.
    static func coverage(_ c: ChannelCoverage, name: String, scale: (Double) -> Double, from: Double, to: Double) -> String {
        guard let start = c.start, let end = c.end, overlaps(start.secondsSinceEpoch, end.secondsSinceEpoch, from, to) else { return "" }
        var svg = rect("coverage", start.secondsSinceEpoch, end.secondsSinceEpoch, scale)
        svg += "<title>\(name) monitored \(fmt(c.monitoredHours)) h from \(start.iso8601) to \(end.iso8601)</title></rect>\n"
        for gap in c.gaps where overlaps(gap.start.secondsSinceEpoch, gap.end.secondsSinceEpoch, from, to) {
            svg += rect("gap", gap.start.secondsSinceEpoch, gap.end.secondsSinceEpoch, scale)
            svg += "<title>\(name) gap from \(gap.start.iso8601) to \(gap.end.iso8601), \(fmt(gap.seconds)) s, \(gap.cause.rawValue)</title></rect>\n"
        }
        return svg
    }

    /// An open band rectangle over [t0, t1], at least a pixel wide so a short gap shows.
    static func rect(_ kind: String, _ t0: Double, _ t1: Double, _ scale: (Double) -> Double) -> String {
        "<rect class=\"\(kind)\" data-t0=\"\(fmt(t0))\" data-t1=\"\(fmt(t1))\" x=\"\(fmt(scale(t0)))\" y=\"1\" width=\"\(fmt(max(1, scale(t1) - scale(t0))))\" height=\"\(fmt(lane - 2))\">"
    }

    /// True when [t0, t1] shows in the window [from, to): it starts in it, or runs into it.
    static func overlaps(_ t0: Double, _ t1: Double, _ from: Double, _ to: Double) -> Bool {
        t0 < to && (t0 >= from || t1 > from)
    }

    /// A channel name cut to the characters that fit left of the plot (the full name is in
    /// the lane's tooltip): a long name ran off the drawing's left edge.
    static func shortened(_ name: String) -> String {
        let fits = Int((left - 14) / (nameSize * 0.62))
        return name.count <= fits ? name : String(name.prefix(fits - 1)) + "…"
    }

    /// Pixels and seconds to two decimals, without a trailing `.0`.
    static func fmt(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    }
}
