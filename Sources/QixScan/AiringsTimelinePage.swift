import QixMarkup

/// A self-contained HTML page showing airings on a timeline: one lane per channel, a mark
/// per airing over the band of time each channel was monitored, with its gaps, so a person
/// sees at a glance when each spot aired and what was listened to.
///
/// Three views: the whole period, a page per week and a page per day (weeks and days of
/// UTC), each airing a mark of its own at every scale. Drawn as inline SVG by QixKit itself,
/// no external files; without scripts every view is shown in full. A small inline script
/// (`TimelineScript`) shows one view at a time, zooms, and filters the drawings and the
/// tables by channel and ID, kept in the URL hash (`#view=day&page=2026-11-21&channel=BBC1`).
public enum AiringsTimelinePage {
    /// Renders `airings` (only those with a wall-clock start are placed on the timeline;
    /// the others are listed in the table below it) over each channel's `coverage` (every
    /// channel in it gets a lane, airings or not).
    public static func render(_ airings: [Airing], coverage: [ChannelCoverage] = [], title: String) -> String {
        let ids = Array(Set(airings.map(\.id))).sorted()
        let colors = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, palette[$0 % palette.count]) })
        let views = TimelineViews(airings, coverage: coverage)
        let channels = views.lanes.count
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(XMLText.escape(title))</title>
            <style>\(style)</style></head><body>
            <h1>\(XMLText.escape(title))</h1>
            <p>\(airings.count) airing\(airings.count == 1 ? "" : "s") of \(ids.count) ID\(ids.count == 1 ? "" : "s") on \(channels) channel\(channels == 1 ? "" : "s"). Times are UTC.</p>
            \(controls(ids: ids, lanes: views.lanes, colors: colors))
            \(legend(airings, ids: ids, colors: colors))
            \(sections(views, colors: colors))
            \(coverageTable(coverage))
            \(airingsTable(airings))
            <script>
            \(TimelineScript.source)</script>
            </body></html>

            """
    }

    /// The three views, each a section of figures: one for the whole period, one per week,
    /// one per day.
    static func sections(_ views: TimelineViews, colors: [String: String]) -> String {
        guard let whole = views.whole else {
            // Nothing has a time: a lane per channel still says which channels were scanned.
            return views.lanes.isEmpty ? "" : "<p>No airing or recording has a known wall-clock time: nothing to place on a timeline.</p>"
        }
        let groups: [(key: String, heading: String, pages: [TimelineViews.Page])] = [
            ("overall", "Whole period", [whole]), ("week", "By week", views.weeks), ("day", "By day", views.days),
        ]
        var html = ""
        for group in groups {
            html += "<section class=\"view\" id=\"view-\(group.key)\"><h2>\(group.heading)</h2>\n"
            for page in group.pages {
                html += "<figure data-page=\"\(page.key)\"><figcaption>\(XMLText.escape(page.caption))</figcaption>\n"
                html += TimelineChart.svg(views.lanes, from: page.from, to: page.to, colors: colors, label: "airings timeline, \(page.caption)")
                html += "</figure>\n"
            }
            html += "</section>\n"
        }
        return html
    }

    /// The view, page and zoom buttons and the channel and ID filters: hidden until the script
    /// runs, since they do nothing without it.
    static func controls(ids: [String], lanes: [TimelineLane], colors: [String: String]) -> String {
        var html = "<div id=\"controls\" hidden>\n<div class=\"bar\"><span id=\"views\">View: "
        html += "<button type=\"button\" data-view=\"overall\">Whole period</button><button type=\"button\" data-view=\"week\">Week</button>"
        html += "<button type=\"button\" data-view=\"day\">Day</button></span>\n"
        html += "<span id=\"pager\"><button type=\"button\" id=\"prev\" title=\"previous page\">◀</button><output id=\"page\"></output>"
        html += "<button type=\"button\" id=\"next\" title=\"next page\">▶</button></span>\n"
        html += "<span>Zoom: <button type=\"button\" id=\"zoom-in\" title=\"zoom in\">+</button><button type=\"button\" id=\"zoom-out\" title=\"zoom out\">−</button>"
        html += "<button type=\"button\" id=\"pan-left\" title=\"earlier\">←</button><button type=\"button\" id=\"pan-right\" title=\"later\">→</button>"
        html += "<button type=\"button\" id=\"zoom-reset\">Reset</button> <small>or scroll over a timeline, drag to move</small></span>\n"
        html += "<output id=\"shown\"></output></div>\n<fieldset id=\"channel-filter\"><legend>Channels</legend>"
        for lane in lanes {
            let name = XMLText.escape(lane.name)
            html += "<label><input type=\"checkbox\" value=\"\(name)\" checked>\(name)</label>"
        }
        html += "</fieldset>\n<fieldset id=\"id-filter\"><legend>IDs</legend>"
        for id in ids {
            html += "<label><input type=\"checkbox\" value=\"\(XMLText.escape(id))\" checked><span class=\"swatch\" style=\"background:\(colors[id]!)\"></span><code>\(XMLText.escape(id))</code></label>"
        }
        html += "<button type=\"button\" id=\"ids-all\">all</button><button type=\"button\" id=\"ids-none\">none</button></fieldset>\n</div>"
        return html
    }

    /// The colour of each ID with its number of airings, and what the lane colours mean.
    static func legend(_ airings: [Airing], ids: [String], colors: [String: String]) -> String {
        var html = "<ul class=\"legend\">\n"
        for id in ids {
            let count = airings.filter { $0.id == id }.count
            html += "<li><span class=\"swatch\" style=\"background:\(colors[id]!)\"></span><code>\(XMLText.escape(id))</code> \(count) airing\(count == 1 ? "" : "s")</li>\n"
        }
        html += "<li><span class=\"swatch coverage\"></span>monitored</li><li><span class=\"swatch gap\"></span>gap: no audio decoded</li>"
        html += "<li><span class=\"swatch lane-bg\"></span>outside the monitored period</li>\n</ul>"
        html += "<p class=\"note\">Marks are at least \(Int(TimelineMarks.minimumWidth)) px wide and never touch: where airings crowd "
        html += "at a scale, a mark moves right by a few pixels (its tooltip gives the exact time); zoom in or open the day to see them to scale.</p>"
        return html
    }

    /// The page's styles: drawing colours live here, not on each element, so the legend and
    /// the lanes agree.
    static let style = """
        body{font-family:system-ui,sans-serif;margin:24px;color:#222}\
        ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:6px 16px;margin:8px 0}\
        .swatch{display:inline-block;width:12px;height:12px;margin:0 6px 0 2px;vertical-align:middle}\
        .swatch.lane-bg,rect.lane-bg{fill:#ebebeb;background:#ebebeb}\
        .swatch.coverage,rect.coverage{fill:#c9e7c4;background:#c9e7c4}.swatch.gap,rect.gap{fill:#f0a39b;background:#f0a39b}\
        svg.timeline{max-width:100%;height:auto;display:block;font-size:10px;user-select:none}\
        svg.timeline text{fill:#333}svg.timeline text.channel{font-size:12px;fill:#222}svg.timeline text.date{fill:#666}\
        g.ticks{pointer-events:none}g.ticks line{stroke:#000;stroke-opacity:0.3;stroke-width:0.6}\
        figure{margin:8px 0 16px}figcaption{font-weight:600;margin-bottom:4px}p.note{font-size:12px;color:#555}\
        #controls{margin:8px 0}#controls .bar{display:flex;flex-wrap:wrap;gap:6px 18px;align-items:center}\
        #controls button{margin:0 2px}#page{margin:0 6px}#controls button[aria-pressed=true]{font-weight:700}\
        fieldset{display:inline-block;margin:6px 12px 0 0;font-size:13px}fieldset label{margin-right:10px;white-space:nowrap}\
        table{border-collapse:collapse;font-size:13px}td,th{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left}
        """

    /// ID colours: strong, told apart from each other, and no green or light red, which the
    /// monitored bands and the gaps they are drawn over already use.
    private static let palette = ["#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#393b79", "#bcbd22", "#7f7f7f", "#843c39"]
}
