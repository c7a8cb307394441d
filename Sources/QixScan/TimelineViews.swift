/// The windows of time the timeline page draws: the whole period, each week and each day.
///
/// At whole-period scale a month of 30 s spots is a row of ticks; a day page shows each spot
/// against its hour, a week page against its day. Weeks run Monday to Monday and days
/// midnight to midnight, UTC, so pages line up with the schedules they are checked against.
struct TimelineViews {
    /// One drawn window.
    struct Page: Equatable {
        /// Its name in the page's URL (`all`, or the date of its first day).
        var key: String
        /// Its heading.
        var caption: String
        /// Start, epoch seconds.
        var from: Double
        /// End (exclusive), epoch seconds.
        var to: Double
    }

    /// Most week pages and day pages drawn: a year of days, two years of weeks (a database
    /// with one stray recording dated 1970 would otherwise ask for twenty thousand pages).
    static let maximumPages = (weeks: 104, days: 366)

    /// The lanes, one per channel: every channel with coverage (airings or not), in coverage
    /// order, then channels known only from airings, by name.
    let lanes: [TimelineLane]
    /// The whole period: every channel's monitored band and every placed airing.
    let whole: Page?

    /// Gathers the lanes and the period of `airings` over `coverage`.
    init(_ airings: [Airing], coverage: [ChannelCoverage]) {
        let timed = airings.compactMap { a in a.wallclockStart.map { (airing: a, start: $0.secondsSinceEpoch, end: $0.secondsSinceEpoch + max(0, a.end - a.start)) } }
        var names = coverage.map { $0.channel ?? "(no channel)" }
        for name in Set(timed.map { $0.airing.channel ?? "(no channel)" }).subtracting(names).sorted() { names.append(name) }
        lanes = names.map { name in
            TimelineLane(name: name, coverage: coverage.first { ($0.channel ?? "(no channel)") == name },
                         airings: timed.filter { ($0.airing.channel ?? "(no channel)") == name })
        }
        // The axis spans what was monitored as well as what aired: a quiet channel's hours count.
        let starts = timed.map(\.start) + coverage.compactMap { $0.start?.secondsSinceEpoch }
        let ends = timed.map(\.end) + coverage.compactMap { $0.end?.secondsSinceEpoch }
        guard let first = starts.min(), let last = ends.max() else { whole = nil; return }
        // A minute at least, so a lone spot still gets an axis with ticks.
        let to = max(last, first + 60)
        whole = Page(key: "all", caption: "\(Self.stamp(first)) to \(Self.stamp(to)) UTC", from: first, to: to)
    }

    /// The week pages (Monday 00:00 UTC to the next) with something on them.
    var weeks: [Page] {
        pages(length: 604_800, origin: TimelineAxis.weekOrigin, limit: Self.maximumPages.weeks) { from, _ in
            "Week of Monday \(WallClockTime(secondsSinceEpoch: from).day)"
        }
    }

    /// The day pages (00:00 to 24:00 UTC) with something on them.
    var days: [Page] {
        pages(length: 86_400, origin: 0, limit: Self.maximumPages.days) { from, _ in
            "\(WallClockTime(secondsSinceEpoch: from).day) (\(Self.weekday(from)))"
        }
    }

    /// Consecutive windows of `length` seconds from `origin`'s grid across the period, those
    /// a band or an airing reaches, at most `limit`.
    func pages(length: Double, origin: Double, limit: Int, caption: (Double, Double) -> String) -> [Page] {
        guard let whole else { return [] }
        var pages: [Page] = []
        var from = ((whole.from - origin) / length).rounded(.down) * length + origin
        while from < whole.to && pages.count < limit {
            let to = from + length
            if holdsAnything(from: from, to: to) {
                pages.append(Page(key: WallClockTime(secondsSinceEpoch: from).day, caption: caption(from, to), from: from, to: to))
            }
            from = to
        }
        return pages
    }

    /// True when a lane's monitored band or one of its airings reaches into [from, to).
    func holdsAnything(from: Double, to: Double) -> Bool {
        lanes.contains { lane in
            if let s = lane.coverage?.start?.secondsSinceEpoch, let e = lane.coverage?.end?.secondsSinceEpoch,
               TimelineChart.overlaps(s, e, from, to) { return true }
            return lane.airings.contains { TimelineChart.overlaps($0.start, $0.end, from, to) }
        }
    }

    /// `YYYY-MM-DD hh:mm:ss`, for captions.
    static func stamp(_ seconds: Double) -> String {
        let text = WallClockTime(secondsSinceEpoch: seconds.rounded()).iso8601
        return text.prefix(10) + " " + text.dropFirst(11).prefix(8)
    }

    /// The English weekday of the UTC day holding `seconds` (1970-01-01 was a Thursday).
    static func weekday(_ seconds: Double) -> String {
        let names = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]
        let day = Int((seconds / 86_400).rounded(.down))
        return names[((day % 7) + 7) % 7]
    }
}
