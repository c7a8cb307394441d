import Testing
@testable import QixScan

/// The HTML timeline: its period, its lanes, its day and week views and their marks, and
/// escaping, on made-up airings and coverage.
@Suite("Airings timeline page")
struct AiringsTimelinePageTests {
    static func time(_ text: String) -> WallClockTime { WallClockTime(iso8601: text)! }

    static func airing(_ id: String, _ channel: String?, _ start: String, seconds: Double = 30) -> Airing {
        Airing(id: id, recording: "\(channel ?? "x").flac", channel: channel, start: 0, end: seconds,
               wallclockStart: time(start), score: 9)
    }

    static func coverage(_ channel: String?, _ start: String, _ end: String, gaps: [(String, String)] = []) -> ChannelCoverage {
        ChannelCoverage(channel: channel, recordings: 1, failed: 0, start: time(start), end: time(end), monitoredSeconds: 0,
                        gaps: gaps.map { CoverageGap(start: time($0.0), end: time($0.1), cause: .notRecorded) }, airings: 0)
    }

    /// Three spots a day a quarter of an hour apart, for the week of Monday 2026-11-16.
    static var threeADay: [Airing] {
        (16...22).flatMap { day in
            ["08:00:00", "08:15:00", "08:30:00"].enumerated().map { k, at in
                airing(k == 1 ? "22222222" : "11111111", "alpha", "2026-11-\(day)T\(at)Z")
            }
        }
    }

    /// The (x, width) of every airing mark of each lane of `svg`, by channel.
    static func marks(_ svg: String) -> [String: [(x: Double, width: Double)]] {
        var result: [String: [(x: Double, width: Double)]] = [:]
        for lane in svg.components(separatedBy: "<g class=\"lane\" data-channel=\"").dropFirst() {
            let channel = String(lane.prefix { $0 != "\"" })
            result[channel] = lane.matches(of: #/<rect class="airing" [^>]*? x="([\d.]+)" y="5" width="([\d.]+)"/#).map {
                (Double($0.output.1)!, Double($0.output.2)!)
            }
        }
        return result
    }

    @Test("the axis spans the coverage, not only the airings; a channel without coverage or airings in time still gets none")
    func axisCoversCoverage() {
        let views = TimelineViews([Self.airing("11111111", "alpha", "2026-11-21T12:00:00Z")],
                                  coverage: [Self.coverage("alpha", "2026-11-21T10:00:00Z", "2026-11-21T18:00:00Z"),
                                             Self.coverage("quiet", "2026-11-21T09:30:00Z", "2026-11-21T11:00:00Z")])
        #expect(views.whole?.from == Self.time("2026-11-21T09:30:00Z").secondsSinceEpoch)
        #expect(views.whole?.to == Self.time("2026-11-21T18:00:00Z").secondsSinceEpoch)
        let quietOnly = TimelineViews([], coverage: [Self.coverage("quiet", "2026-11-21T09:30:00Z", "2026-11-21T11:00:00Z")])
        #expect(quietOnly.whole?.from == Self.time("2026-11-21T09:30:00Z").secondsSinceEpoch)
        #expect(quietOnly.days.map(\.key) == ["2026-11-21"] && quietOnly.weeks.map(\.key) == ["2026-11-16"])
        let svg = TimelineChart.svg(quietOnly.lanes, from: quietOnly.whole!.from, to: quietOnly.whole!.to, colors: [:], label: "t")
        #expect(svg.contains(#"data-from="1795253400" data-to="1795258800""#), "\(svg.prefix(300))")
    }

    @Test("a channel with no airings has a lane, with its band and gap, in every view")
    func quietChannelHasALane() {
        let page = AiringsTimelinePage.render(
            [Self.airing("11111111", "alpha", "2026-11-21T12:00:00Z")],
            coverage: [Self.coverage("alpha", "2026-11-21T10:00:00Z", "2026-11-21T18:00:00Z"),
                       Self.coverage("quiet", "2026-11-21T10:00:00Z", "2026-11-21T18:00:00Z", gaps: [("2026-11-21T14:00:00Z", "2026-11-21T14:20:00Z")])],
            title: "t")
        // Whole period, one week, one day.
        #expect(page.components(separatedBy: #"<g class="lane" data-channel="quiet""#).count - 1 == 3)
        #expect(page.components(separatedBy: "<title>quiet</title>quiet</text>").count - 1 == 3)
        #expect(page.components(separatedBy: #"<rect class="gap""#).count - 1 == 3)
        #expect(page.contains("<title>quiet gap from 2026-11-21T14:00:00Z to 2026-11-21T14:20:00Z, 1200 s, not recorded</title>"))
        #expect(page.contains(#"<tr data-channel="quiet"><td>quiet</td>"#))
        #expect(page.contains(#"<figure data-page="2026-11-21"><figcaption>2026-11-21 (Saturday)</figcaption>"#))
    }

    @Test("week view: 3 spots a day a quarter of an hour apart stay 21 marks whose drawn ranges do not touch")
    func weekKeepsSpotsDistinct() throws {
        let views = TimelineViews(Self.threeADay, coverage: [Self.coverage("alpha", "2026-11-16T00:00:00Z", "2026-11-23T00:00:00Z")])
        let week = try #require(views.weeks.first)
        #expect(views.weeks.count == 1 && week.key == "2026-11-16" && views.days.count == 7)
        let drawn = try #require(Self.marks(TimelineChart.svg(views.lanes, from: week.from, to: week.to, colors: [:], label: "w"))["alpha"])
        #expect(drawn.count == 21)
        for (a, b) in zip(drawn, drawn.dropFirst()) {
            #expect(a.width >= 1 && a.x + a.width + TimelineMarks.separation <= b.x + 0.011, "\(a) then \(b)")
        }
        // Each mark stays within a few pixels of its time: 15 minutes is 1.5 px at week scale.
        let perSecond = TimelineChart.width / 604_800
        for (mark, spot) in zip(drawn, Self.threeADay) {
            let x = TimelineChart.left + (spot.wallclockStart!.secondsSinceEpoch - week.from) * perSecond
            #expect(mark.x >= x - 0.011 && mark.x <= x + 2 * (TimelineMarks.minimumWidth + TimelineMarks.separation))
        }
        // A day page draws them to scale: 15 minutes is 10 px there, nothing moves.
        let day = views.days[0]
        let daily = try #require(Self.marks(TimelineChart.svg(views.lanes, from: day.from, to: day.to, colors: [:], label: "d"))["alpha"])
        #expect(daily.map(\.x) == [483.33, 493.75, 504.17])
    }

    @Test("marks that would touch are shortened, then moved; marks with room keep their place; none crosses the edge")
    func markPlacement() {
        let placed = TimelineMarks.place([(100, 0.05), (100.5, 0.05), (101, 0.05), (200, 10), (205, 10), (998, 1)], within: 0...1000)
        #expect(placed.map(\.x) == [100, 104, 108, 200, 205, 997])
        #expect(placed.map(\.width) == [3, 3, 3, 4, 10, 3])
        let crowdedEnd = TimelineMarks.place([(999, 0), (999, 0), (1000, 0)], within: 0...1000)
        #expect(crowdedEnd.map(\.x) == [989, 993, 997])
    }

    @Test("channel names, IDs and the title with < > & \" are escaped everywhere; a long name is shortened in its lane")
    func escaping() {
        let name = #"<b>News & "Sport"</b>"#
        let long = String(repeating: "Channel", count: 5)
        let page = AiringsTimelinePage.render([Self.airing("11111111", name, "2026-11-21T12:00:00Z"), Self.airing("22222222", long, "2026-11-21T13:00:00Z")],
                                              coverage: [], title: "a <title> & \"more\"")
        #expect(!page.contains(name) && !page.contains("a <title>"))
        let escaped = "&lt;b&gt;News &amp; &quot;Sport&quot;&lt;/b&gt;"
        #expect(page.contains(#"<g class="lane" data-channel="\#(escaped)""#))
        #expect(page.contains(#"<input type="checkbox" value="\#(escaped)" checked>"#))
        #expect(page.contains(#"<tr data-id="11111111" data-channel="\#(escaped)">"#))
        #expect(page.contains("<title>a &lt;title&gt; &amp; &quot;more&quot;</title>"))
        #expect(page.contains("<title>\(long)</title>\(long.prefix(TimelineChart.shortened(long).count - 1))…</text>"))
        #expect(Double(TimelineChart.shortened(long).count) * TimelineChart.nameSize * 0.62 <= TimelineChart.left - 8)
    }

    @Test("the page is self-contained: one inline script, no external files, and the drawing is complete without it")
    func selfContained() {
        let page = AiringsTimelinePage.render(Self.threeADay, coverage: [], title: "t")
        #expect(page.components(separatedBy: "<script").count == 2 && !page.contains("src=") && !page.contains("href="))
        #expect(page.contains(#"<div id="controls" hidden>"#))
        #expect(page.components(separatedBy: #"<rect class="airing""#).count - 1 == 21 * 3, "whole period, week and day views")
        #expect(page.contains("var LADDER = [1, 5, 10, 30, 60, 300,"))
    }
}
