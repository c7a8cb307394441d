import Dispatch

/// Decoding progress as the user reads it, for `qix detect` and `qix scan` alike: the
/// seconds decoded of the seconds expected, the rate in times real time and the time left,
/// on an injectable clock, and when a redraw is due.
struct ProgressMeter {
    /// Seconds between two redraws on a terminal: four a second reads as moving, without
    /// flicker, and costs nothing next to decoding.
    static let redrawInterval = 0.25

    private let clock: () -> Double
    private let started: Double
    private var lastDrawn = -Double.infinity

    /// A meter started now on `clock` (seconds, monotonic).
    init(clock: @escaping () -> Double = ProgressMeter.monotonicSeconds) {
        self.clock = clock
        started = clock()
    }

    /// Seconds since the meter started.
    var elapsed: Double { clock() - started }

    /// True, and noted as drawn, when `interval` seconds have passed since the last draw.
    mutating func due(every interval: Double = redrawInterval) -> Bool {
        let now = clock()
        guard now - lastDrawn >= interval else { return false }
        lastDrawn = now
        return true
    }

    /// Times real time: seconds decoded per second elapsed; nil before any of either.
    static func rate(decoded: Double, elapsed: Double) -> Double? {
        guard decoded > 0, elapsed > 0 else { return nil }
        return decoded / elapsed
    }

    /// Seconds left at the rate so far; nil while the rate or the total is unknown.
    static func secondsLeft(decoded: Double, expected: Double?, elapsed: Double) -> Double? {
        guard let expected, let rate = rate(decoded: decoded, elapsed: elapsed) else { return nil }
        return max(0, expected - decoded) / rate
    }

    /// "0:31:12 of 2:00:00 audio (26 %), 85x real time, ETA 1m05s"; what is unknown is left out
    /// or shown as "--".
    func status(decoded: Double, expected: Double?) -> String {
        let elapsed = self.elapsed
        var text = Self.clockText(decoded)
        if let expected, expected > 0 {
            text += " of \(Self.clockText(expected)) audio (\(Int(min(100, 100 * decoded / expected))) %)"
        } else {
            text += " audio"
        }
        let rate = Self.rate(decoded: decoded, elapsed: elapsed).map { "\(Int($0))x" } ?? "--"
        let left = Self.secondsLeft(decoded: decoded, expected: expected, elapsed: elapsed).map(Self.etaText) ?? "--"
        return text + ", \(rate) real time, ETA \(left)"
    }

    /// Audio positions as h:mm:ss.
    static func clockText(_ seconds: Double) -> String {
        let whole = Int(max(0, min(seconds, 1e12)))
        return "\(whole / 3600):" + twoDigits(whole / 60 % 60) + ":" + twoDigits(whole % 60)
    }

    /// Time left as 1h02m, 3m05s or 42s.
    static func etaText(_ seconds: Double) -> String {
        let whole = Int(max(0, min(seconds.rounded(.up), 1e12)))
        if whole >= 3600 { return "\(whole / 3600)h" + twoDigits(whole / 60 % 60) + "m" }
        if whole >= 60 { return "\(whole / 60)m" + twoDigits(whole % 60) + "s" }
        return "\(whole)s"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// The default clock: seconds since boot, unaffected by changes of the wall clock.
    static func monotonicSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
