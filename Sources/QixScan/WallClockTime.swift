import Foundation
import QixMarkup
/// A UTC instant in seconds since 1970, written and read as ISO 8601
/// (`2026-11-21T18:30:00Z`, or with fractional seconds when they are not whole).
///
/// Foundation's ISO 8601 reads and writes the text (fixed Gregorian calendar in UTC: the same
/// on every machine, whatever its locale or time-zone database); building from calendar
/// fields is own arithmetic. Instants before 1583 are out of scope: Foundation's calendar is
/// Julian before October 1582, the field initializer proleptic Gregorian.
public struct WallClockTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSinceEpoch: Double

    /// Wraps seconds since the epoch.
    public init(secondsSinceEpoch: Double) { self.secondsSinceEpoch = secondsSinceEpoch }

    /// Builds an instant from calendar fields in UTC; nil when a field is out of range.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Double = 0) {
        guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), second >= 0, second < 61 else { return nil }
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        secondsSinceEpoch = Double(days * 86_400 + hour * 3600 + minute * 60) + second
    }

    /// Parses `YYYY-MM-DDThh:mm:ss[.fff](Z|±hh:mm)` (a space for the `T` and a missing zone,
    /// read as UTC, are taken too) or a bare date `YYYY-MM-DD` (midnight UTC).
    public init?(iso8601 text: String) {
        guard let date = Self.parse(text) else { return nil }
        self.init(secondsSinceEpoch: date.timeIntervalSince1970)
    }

    /// Foundation's ISO 8601, fractional seconds optional when parsing.
    private static let instant = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    /// Foundation's ISO 8601 to the whole second, in UTC (`2026-11-21T18:30:00Z`).
    private static let wholeSeconds = Date.ISO8601FormatStyle()

    /// The smallest wrapper around Foundation's parse strategy, which is lenient where the
    /// contract is not: it reads no bare date (docs/scan.md's `--from 2026-11-21`), no space
    /// for the `T` and no zone-less time (all accepted before Foundation took over), and it
    /// rolls impossible fields over (`2023-02-29` into March 1st, 24:00 into the next day)
    /// where they must be refused. So a bare date becomes its midnight, a space a `T`, a
    /// zone-less time UTC, and the date and time must read back unchanged when Foundation
    /// writes them again (which refuses leap seconds, `23:59:60`, too).
    private static func parse(_ text: String) -> Date? {
        var text = text
        if text.utf8.count == 10 {
            text += "T00:00:00Z"
        } else if text.utf8.count > 10, text.utf8.dropFirst(10).first == UInt8(ascii: " ") {
            text = text.prefix(10) + "T" + text.dropFirst(11)
        }
        // `wholeMatch`, not `parse`: the parse strategy ignores text after the zone.
        guard let date = text.wholeMatch(of: instant)?.output ?? (text + "Z").wholeMatch(of: instant)?.output
        else { return nil }
        let fields = text.prefix(19) + "Z"
        guard let read = fields.wholeMatch(of: wholeSeconds)?.output, wholeSeconds.format(read) == fields else { return nil }
        return date
    }

    /// The ISO 8601 text in UTC, with milliseconds only when the instant has a fraction.
    public var iso8601: String {
        // Rounded to the millisecond here (59.9996 s is the next whole second): Foundation
        // truncates the fraction it writes, and writes it even when it is zero.
        let whole = secondsSinceEpoch.rounded(.down)
        var millis = Int(((secondsSinceEpoch - whole) * 1000).rounded())
        var seconds = whole
        if millis == 1000 { seconds += 1; millis = 0 }
        let text = Self.wholeSeconds.format(Date(timeIntervalSince1970: seconds))
        guard millis != 0 else { return text }
        return text.dropLast() + "." + String(millis).leftPadded(3) + "Z"
    }

    /// The calendar day (`YYYY-MM-DD`, UTC) the instant falls on.
    public var day: String { String(iso8601.prefix(10)) }

    /// The ISO 8601 text.
    public var description: String { iso8601 }

    /// Orders instants in time.
    public static func < (a: WallClockTime, b: WallClockTime) -> Bool { a.secondsSinceEpoch < b.secondsSinceEpoch }

    /// The instant `seconds` later.
    public func adding(_ seconds: Double) -> WallClockTime { WallClockTime(secondsSinceEpoch: secondsSinceEpoch + seconds) }

    // Howard Hinnant's days-from-civil algorithm.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
