import Foundation

/// How much chance of a false report an expected-ID search allows, and so the score an
/// expected ID must reach in a window (docs/watermark.md, "Expected IDs").
///
/// On audio without an expected ID's mark, a window's score at its best offset passes a
/// threshold T with probability about 200 Q(T) per ID (the best of about 200 correlated
/// offsets of a N(0, 1) score). At 7 that is one false report per ~130 years of audio per
/// ID, at 3271 windows an hour.
public enum FalseReportBudget: Sendable, Equatable {
    /// The same chance per hour of audio whatever the input's length: monitors, archive
    /// scans and live streams, which see input after input. The threshold stays
    /// `WatermarkDetector.expectedScore`.
    case perHour
    /// One hour's chance at `expectedScore` for a whole input, however short: an app's
    /// listening session of a few seconds, where a false report is one session's, not one
    /// of the thousands of windows an hour of monitoring holds. With 20 expected IDs that
    /// is one false report in about 60 000 sessions.
    case perSession

    /// The shortest input the per-session threshold is computed for, in seconds: a
    /// shorter one holds no whole frame, and the threshold stops falling there (5.76).
    public static let shortestSession = 1.0

    /// The score an expected ID must reach in a window of an input of `seconds`.
    public func expectedScore(seconds: Double) -> Float {
        switch self {
        case .perHour:
            return WatermarkDetector.expectedScore
        case .perSession:
            let hourly = Double(WatermarkDetector.expectedScore)
            let seconds = seconds.isFinite ? max(seconds, Self.shortestSession) : 3600
            // The whole input keeps an hour's chance: Q(T) = Q(7) * 3600 s / seconds.
            let tail = Self.upperTail(hourly) * 3600 / seconds
            return Float(min(hourly, Self.inverseUpperTail(tail)))
        }
    }

    /// Q(x), the standard normal distribution's upper tail.
    static func upperTail(_ x: Double) -> Double { 0.5 * erfc(x / 2.0.squareRoot()) }

    /// The x at which Q(x) = `tail` (0 < tail < 0.5), by bisection: Q falls monotonically.
    static func inverseUpperTail(_ tail: Double) -> Double {
        var low = 0.0, high = 40.0
        for _ in 0..<80 {
            let middle = (low + high) / 2
            if upperTail(middle) > tail { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}
