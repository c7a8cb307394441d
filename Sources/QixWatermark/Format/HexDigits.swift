/// Reads hexadecimal text (key files, `--message` IDs) as ASCII hex digits only.
///
/// `UInt8(_:radix:)` alone accepts a leading `+` or `-` ("-0" is 0), and `Character.isHexDigit`
/// accepts fullwidth digits: a key or ID must be exactly what `qix keygen` and the reports
/// print, so neither is let through.
enum HexDigits {
    /// The value of one ASCII hex digit, or nil for any other byte.
    static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The bytes that `text` spells as pairs of hex digits, or the first pair that does not
    /// spell a byte, as written (the last character alone when the count is odd).
    static func bytes(_ text: Substring) -> Result<[UInt8], BadPair> {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index + 1 < utf8.count {
            guard let high = value(of: utf8[index]), let low = value(of: utf8[index + 1]) else {
                return .failure(BadPair(text: Self.pair(in: text, startingAtByte: index)))
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        guard index == utf8.count else { return .failure(BadPair(text: String(text.suffix(1)))) }
        return .success(bytes)
    }

    /// A pair of characters that does not spell a byte, as the user wrote it.
    struct BadPair: Error, Equatable {
        /// The offending characters.
        let text: String
    }

    /// The two characters around UTF-8 offset `offset`, for the error message.
    private static func pair(in text: Substring, startingAtByte offset: Int) -> String {
        var consumed = 0
        var index = text.startIndex
        while index < text.endIndex, consumed + text[index].utf8.count <= offset {
            consumed += text[index].utf8.count
            index = text.index(after: index)
        }
        return String(text[index...].prefix(2))
    }
}
