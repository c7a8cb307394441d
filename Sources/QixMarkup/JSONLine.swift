/// Builds one JSON object on one line with keys in the order they are added, for the
/// line-per-record outputs (`--json`, traces) that scripts consume.
public struct JSONLine {
    private var text = "{"
    private var first = true

    /// An empty object.
    public init() {}

    private mutating func key(_ name: String) {
        if !first { text += ", " }
        first = false
        text += JSONLine.quoted(name) + ": "
    }

    /// Adds a string field (nil writes null).
    public mutating func add(_ name: String, _ value: String?) {
        key(name)
        text += value.map(JSONLine.quoted) ?? "null"
    }

    /// Adds a number field; NaN, infinities and nil write null.
    public mutating func add(_ name: String, _ value: Double?) {
        key(name)
        text += JSONLine.number(value)
    }

    /// Adds an integer field.
    public mutating func add(_ name: String, _ value: Int) {
        key(name)
        text += String(value)
    }

    /// Adds a boolean field.
    public mutating func add(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    /// Adds already-encoded JSON (an array or object) as a field.
    public mutating func addRaw(_ name: String, _ json: String) {
        key(name)
        text += json
    }

    /// The finished object.
    public var string: String { text + "}" }

    /// A JSON number in the shortest form that reads back to the same Double.
    public static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A JSON string literal with the required escapes.
    public static func quoted(_ raw: String) -> String {
        var out = "\""
        for scalar in raw.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(scalar.value, radix: 16).leftPadded(4)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A JSON array from already-encoded elements.
    public static func array(_ elements: [String]) -> String { "[" + elements.joined(separator: ", ") + "]" }
}

extension String {
    /// The string with zeros in front up to `width` characters (for digits).
    public func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
