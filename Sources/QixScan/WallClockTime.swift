import QixMarkup
/// A UTC instant in seconds since 1970, written and read as ISO 8601
/// (`2026-11-21T18:30:00Z`, or with fractional seconds when they are not whole).
///
/// Own calendar arithmetic (proleptic Gregorian, UTC only) keeps the text identical on
/// every machine, whatever its locale or time-zone database.
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

    /// Parses `YYYY-MM-DDThh:mm:ss[.fff](Z|±hh:mm)` or a bare date `YYYY-MM-DD` (midnight UTC).
    public init?(iso8601 text: String) {
        let chars = Array(text.utf8)
        func number(_ from: Int, _ length: Int) -> Int? {
            guard from + length <= chars.count else { return nil }
            var value = 0
            for c in chars[from..<from + length] {
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        guard chars.count >= 10, chars[4] == UInt8(ascii: "-"), chars[7] == UInt8(ascii: "-"),
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2) else { return nil }
        if chars.count == 10 {
            self.init(year: year, month: month, day: day)
            return
        }
        guard chars.count >= 19, chars[10] == UInt8(ascii: "T") || chars[10] == UInt8(ascii: " "),
              chars[13] == UInt8(ascii: ":"), chars[16] == UInt8(ascii: ":"),
              let hour = number(11, 2), let minute = number(14, 2), let whole = number(17, 2) else { return nil }
        var index = 19
        var second = Double(whole)
        if index < chars.count, chars[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < chars.count, chars[index] >= 48, chars[index] <= 57 {
                second += Double(chars[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        var offset = 0
        if index < chars.count {
            if chars[index] == UInt8(ascii: "Z"), index == chars.count - 1 {
                offset = 0
            } else if chars[index] == UInt8(ascii: "+") || chars[index] == UInt8(ascii: "-"),
                      chars.count == index + 6, chars[index + 3] == UInt8(ascii: ":"),
                      let hours = number(index + 1, 2), let minutes = number(index + 4, 2) {
                offset = (hours * 3600 + minutes * 60) * (chars[index] == UInt8(ascii: "-") ? -1 : 1)
            } else {
                return nil
            }
        }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        secondsSinceEpoch -= Double(offset)
    }

    /// The ISO 8601 text in UTC, with milliseconds only when the instant has a fraction.
    public var iso8601: String {
        let whole = secondsSinceEpoch.rounded(.down)
        let millis = Int(((secondsSinceEpoch - whole) * 1000).rounded())
        var total = Int64(whole)
        var fraction = millis
        if fraction == 1000 { total += 1; fraction = 0 }
        let days = Int(floorDiv(total, 86_400))
        let secondsOfDay = Int(total - Int64(days) * 86_400)
        let (y, m, d) = Self.civilFromDays(days)
        var text = "\(String(y).leftPadded(4))-\(String(m).leftPadded(2))-\(String(d).leftPadded(2))T\(String(secondsOfDay / 3600).leftPadded(2)):\(String(secondsOfDay / 60 % 60).leftPadded(2)):\(String(secondsOfDay % 60).leftPadded(2))"
        if fraction != 0 { text += "." + String(fraction).leftPadded(3) }
        return text + "Z"
    }

    /// The calendar day (`YYYY-MM-DD`, UTC) the instant falls on.
    public var day: String { String(iso8601.prefix(10)) }

    /// The ISO 8601 text.
    public var description: String { iso8601 }

    /// Orders instants in time.
    public static func < (a: WallClockTime, b: WallClockTime) -> Bool { a.secondsSinceEpoch < b.secondsSinceEpoch }

    /// The instant `seconds` later.
    public func adding(_ seconds: Double) -> WallClockTime { WallClockTime(secondsSinceEpoch: secondsSinceEpoch + seconds) }

    // Howard Hinnant's days-from-civil algorithms.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

private func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
