/// Maps recording file names such as `BBC1_20261121_180000.flac` to a channel and the
/// wall-clock time of the first sample.
///
/// Patterns use the fields `{channel}`, `{YYYY}`, `{MM}`, `{DD}`, `{hh}`, `{mm}`, `{ss}`
/// and the wildcard `*`; everything else must match literally. Times are UTC. The default,
/// `{channel}_{YYYY}{MM}{DD}_{hh}{mm}{ss}`, covers the common archive layout.
public struct RecordingNamePattern: Sendable {
    /// The archive layout most loggers write.
    public static let standard = try! RecordingNamePattern("{channel}_{YYYY}{MM}{DD}_{hh}{mm}{ss}")

    enum Piece: Sendable, Equatable {
        case literal([UInt8])
        case channel
        case digits(field: String, count: Int)
        case wildcard
    }

    /// The pattern text.
    public let text: String
    let pieces: [Piece]

    /// Parses a pattern; throws for unknown fields or an unclosed brace.
    public init(_ text: String) throws {
        self.text = text
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        var rest = Substring(text)
        func flush() { if !literal.isEmpty { pieces.append(.literal(literal)); literal = [] } }
        while let c = rest.first {
            if c == "{" {
                guard let close = rest.firstIndex(of: "}") else {
                    throw ScanError("invalid name pattern", parameter: "namePattern", "'{' without '}' in '\(text)'")
                }
                let name = String(rest[rest.index(after: rest.startIndex)..<close])
                flush()
                switch name {
                case "channel": pieces.append(.channel)
                case "YYYY": pieces.append(.digits(field: name, count: 4))
                case "MM", "DD", "hh", "mm", "ss": pieces.append(.digits(field: name, count: 2))
                default:
                    throw ScanError("invalid name pattern", parameter: "namePattern",
                                    "unknown field {\(name)}; use {channel} {YYYY} {MM} {DD} {hh} {mm} {ss}")
                }
                rest = rest[rest.index(after: close)...]
            } else if c == "*" {
                flush()
                pieces.append(.wildcard)
                rest = rest.dropFirst()
            } else {
                literal += Array(String(c).utf8)
                rest = rest.dropFirst()
            }
        }
        flush()
        guard pieces.contains(.channel) || pieces.contains(where: { if case .digits = $0 { return true } else { return false } }) else {
            throw ScanError("invalid name pattern", parameter: "namePattern", "'\(text)' has no {channel} or date fields")
        }
        self.pieces = pieces
    }

    /// What a file name (without folder and extension) says, or nil when it does not match.
    public func match(fileName: String) -> (channel: String?, start: WallClockTime?)? {
        let name = Array(fileName.utf8)
        var fields: [String: Int] = [:]
        var channel: String?
        guard matchPieces(pieces[...], name[...], &fields, &channel) else { return nil }
        var start: WallClockTime?
        if let year = fields["YYYY"], let month = fields["MM"], let day = fields["DD"] {
            start = WallClockTime(year: year, month: month, day: day, hour: fields["hh"] ?? 0,
                                  minute: fields["mm"] ?? 0, second: Double(fields["ss"] ?? 0))
            if start == nil { return nil }
        }
        return (channel, start)
    }

    /// Backtracking match; names are short, so the cost is negligible.
    private func matchPieces(_ pieces: ArraySlice<Piece>, _ name: ArraySlice<UInt8>,
                             _ fields: inout [String: Int], _ channel: inout String?) -> Bool {
        guard let piece = pieces.first else { return name.isEmpty }
        let rest = pieces.dropFirst()
        switch piece {
        case .literal(let bytes):
            guard name.starts(with: bytes) else { return false }
            return matchPieces(rest, name.dropFirst(bytes.count), &fields, &channel)
        case .digits(let field, let count):
            guard name.count >= count, name.prefix(count).allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return false }
            fields[field] = name.prefix(count).reduce(0) { $0 * 10 + Int($1 - 48) }
            return matchPieces(rest, name.dropFirst(count), &fields, &channel)
        case .channel, .wildcard:
            // Shortest first, so `{channel}_...` stops at the first separator that lets the rest match.
            for length in 1...max(1, name.count) where length <= name.count {
                var trialFields = fields
                var trialChannel = channel
                if matchPieces(rest, name.dropFirst(length), &trialFields, &trialChannel) {
                    fields = trialFields
                    channel = piece == .channel ? String(decoding: name.prefix(length), as: UTF8.self) : trialChannel
                    return true
                }
            }
            return false
        }
    }
}
