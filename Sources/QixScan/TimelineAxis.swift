/// The time axis of an airings timeline: ticks at round UTC instants, a step from a ladder of
/// round durations chosen so that labels keep their distance, and label placement that keeps
/// every label inside the drawing.
///
/// A broadcast log is read against the clock: a tick at 10:03:39 (a fifth of an odd span) says
/// nothing, one at 10:00 does. The page's script zooms with the same ladder and rules
/// (`TimelineScript`), so what it redraws matches what is written here.
public struct TimelineAxis: Sendable, Equatable {
    /// One tick: its instant and the text under it.
    public struct Tick: Sendable, Equatable {
        /// Seconds since 1970 (UTC).
        public var seconds: Double
        /// The time (`HH:MM`, `HH:MM:SS`) or, for steps of a day or more, the date.
        public var label: String
        /// The date (`YYYY-MM-DD`) on a second line, at the first tick and at each midnight
        /// for steps under a day, so the reader always knows which day a time is on.
        public var date: String?
    }

    /// The step, seconds.
    public var step: Double
    /// The ticks within the window, in time order.
    public var ticks: [Tick]

    /// Round steps, seconds: 1 s up to 1 day, then whole weeks (months are not a fixed length).
    static let ladder: [Double] = [1, 5, 10, 30, 60, 300, 600, 900, 1800, 3600, 10_800, 21_600, 43_200, 86_400,
                                   604_800, 1_209_600, 2_419_200, 7_862_400, 15_724_800, 31_449_600]
    /// Monday 1970-01-05T00:00:00Z: weeks start on Mondays, as broadcast schedules do.
    static let weekOrigin = 345_600.0
    /// Font size of tick labels, in the drawing's pixels.
    static let fontSize = 10.0

    /// Pixels between ticks at least: room for the widest label of that step and some air.
    static func minimumSpacing(_ step: Double) -> Double {
        step >= 86_400 ? 70 : step < 60 ? 56 : 40
    }

    /// The smallest step of the ladder whose ticks lie at least `minimumSpacing` apart when
    /// `span` seconds are drawn `width` pixels wide.
    static func step(span: Double, width: Double) -> Double {
        let span = max(span, 1)
        return ladder.first { $0 / span * width >= minimumSpacing($0) } ?? ladder[ladder.count - 1]
    }

    /// The axis of the window `from`...`to` drawn `width` pixels wide.
    public init(from: Double, to: Double, width: Double) {
        step = Self.step(span: to - from, width: width)
        // Days and hours count from the epoch, which is a UTC midnight; weeks from a Monday.
        let origin = step >= 604_800 ? Self.weekOrigin : 0
        let first = ((from - origin) / step).rounded(.up) * step + origin
        var ticks: [Tick] = []
        var k = 0.0
        while first + k * step <= to + 1e-6 {
            let t = first + k * step
            let text = WallClockTime(secondsSinceEpoch: t).iso8601
            let label = step < 60 ? String(text.dropFirst(11).prefix(8)) : step < 86_400 ? String(text.dropFirst(11).prefix(5)) : String(text.prefix(10))
            let midnight = t.truncatingRemainder(dividingBy: 86_400) == 0
            let date = step < 86_400 && (ticks.isEmpty || midnight) ? String(text.prefix(10)) : nil
            ticks.append(Tick(seconds: t, label: label, date: date))
            k += 1
        }
        self.ticks = ticks
    }

    /// Estimated width of `text` in pixels at `fontSize`: digits and dashes of a sans-serif
    /// run about 0.55 em, so 0.62 em errs on the wide side.
    static func textWidth(_ text: String, fontSize: Double = fontSize) -> Double {
        Double(text.count) * fontSize * 0.62
    }

    /// Where a label `width` wide for a tick at `x` goes so it stays within `bounds`: centred
    /// under its tick, or flush against the edge it would cross (the old axis lost half its
    /// last label past the right edge).
    static func placeLabel(x: Double, width: Double, within bounds: ClosedRange<Double>) -> (x: Double, anchor: String) {
        if x - width / 2 < bounds.lowerBound { return (max(x, bounds.lowerBound), "start") }
        if x + width / 2 > bounds.upperBound { return (min(x, bounds.upperBound), "end") }
        return (x, "middle")
    }
}
