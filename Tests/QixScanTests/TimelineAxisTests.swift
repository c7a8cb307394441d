import Testing
@testable import QixScan

/// The timeline's axis: ticks at round UTC times for every scale from a minute to four weeks,
/// dates where the day changes, and labels that stay inside the drawing.
@Suite("Timeline axis")
struct TimelineAxisTests {
    /// 2026-11-21T10:03:39.25Z: an odd start, as a real monitoring period has.
    static let odd = WallClockTime(iso8601: "2026-11-21T10:03:39.250Z")!.secondsSinceEpoch

    @Test("spans from 1 minute to 4 weeks: ticks at whole multiples of a ladder step, 2 to 26 of them, labels apart")
    func roundTimes() {
        let spans: [Double] = [60, 300, 900, 3600, 6 * 3600, 86_400, 3 * 86_400, 7 * 86_400, 14 * 86_400, 28 * 86_400]
        for span in spans {
            let axis = TimelineAxis(from: Self.odd, to: Self.odd + span, width: TimelineChart.width)
            #expect(TimelineAxis.ladder.contains(axis.step))
            #expect((2...26).contains(axis.ticks.count), "span \(span): \(axis.ticks.count) ticks")
            let origin = axis.step >= 604_800 ? TimelineAxis.weekOrigin : 0
            for tick in axis.ticks {
                #expect((tick.seconds - origin).truncatingRemainder(dividingBy: axis.step) == 0, "span \(span): \(tick)")
                #expect(tick.seconds >= Self.odd && tick.seconds <= Self.odd + span)
            }
            #expect(axis.step / span * TimelineChart.width >= TimelineAxis.minimumSpacing(axis.step), "span \(span)")
            // The next smaller step would have crowded the labels: the finest readable grid is chosen.
            if let smaller = TimelineAxis.ladder.last(where: { $0 < axis.step }) {
                #expect(smaller / span * TimelineChart.width < TimelineAxis.minimumSpacing(smaller))
            }
        }
    }

    @Test("labels: seconds under a minute's step, hours and minutes under a day's, dates at the first tick and each midnight")
    func labels() {
        let minute = TimelineAxis(from: Self.odd, to: Self.odd + 60, width: 1000)
        #expect(minute.step == 5)
        #expect(minute.ticks.first == .init(seconds: Self.odd + 0.75, label: "10:03:40", date: "2026-11-21"))
        #expect(minute.ticks.dropFirst().allSatisfy { $0.date == nil && $0.label.count == 8 })

        let day = TimelineAxis(from: Self.odd, to: Self.odd + 86_400, width: 1000)
        #expect(day.step == 3600)
        #expect(day.ticks.map(\.label).prefix(3) == ["11:00", "12:00", "13:00"])
        #expect(day.ticks.compactMap(\.date) == ["2026-11-21", "2026-11-22"])
        #expect(day.ticks.first { $0.date == "2026-11-22" }?.label == "00:00")

        let week = TimelineAxis(from: Self.odd, to: Self.odd + 7 * 86_400, width: 1000)
        #expect(week.step == 43_200)
        #expect(week.ticks.first?.label == "12:00" && week.ticks.filter { $0.date != nil }.count == 8)

        let month = TimelineAxis(from: Self.odd, to: Self.odd + 28 * 86_400, width: 1000)
        #expect(month.step == 604_800)
        // Mondays: 2026-11-23 is one.
        #expect(month.ticks.map(\.label) == ["2026-11-23", "2026-11-30", "2026-12-07", "2026-12-14"])
        #expect(month.ticks.allSatisfy { $0.date == nil })
    }

    @Test("a label near an edge is flush against it instead of running off the drawing")
    func labelsStayInside() {
        #expect(TimelineAxis.placeLabel(x: 500, width: 40, within: 0...1000) == (500, "middle"))
        #expect(TimelineAxis.placeLabel(x: 990, width: 40, within: 0...1000) == (990, "end"))
        #expect(TimelineAxis.placeLabel(x: 1005, width: 40, within: 0...1000) == (1000, "end"))
        #expect(TimelineAxis.placeLabel(x: 10, width: 40, within: 0...1000) == (10, "start"))
        // Every tick label of a drawing whose period ends on a tick, which was clipped before.
        let from = Self.odd, to = WallClockTime(iso8601: "2026-11-22T00:00:00Z")!.secondsSinceEpoch
        let svg = TimelineChart.ticks(from: from, to: to, lanes: 2)
        let total = TimelineChart.left + TimelineChart.width + TimelineChart.right
        for match in svg.matches(of: #/<text(?: class="date")? x="([\d.]+)" y="[\d.]+" text-anchor="(\w+)">([^<]+)</text>/#) {
            let x = Double(match.output.1)!, width = TimelineAxis.textWidth(String(match.output.3))
            let (lo, hi) = match.output.2 == "start" ? (x, x + width) : match.output.2 == "end" ? (x - width, x) : (x - width / 2, x + width / 2)
            #expect(lo >= 0 && hi <= total, "\(match.output.0)")
        }
        #expect(svg.contains(#"text-anchor="middle">00:00</text>"#) && svg.contains(#"text-anchor="end">2026-11-22</text>"#),
                "the last tick, at the right edge: its time centred, its longer date flush against the edge")
    }
}
