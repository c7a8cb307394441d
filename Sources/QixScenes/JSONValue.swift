/// A parsed JSON document that keeps object keys in file order, so readers can walk it and
/// name the exact path (`behaviors[3].items[1]`) of anything wrong.
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (always finite after parsing succeeds, unless it overflowed Double).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object with its fields in file order.
    case object([(key: String, value: JSONValue)])

    /// Structural equality; objects compare their members in order.
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// A short name of the value's type for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Parses UTF-8 JSON text (RFC 8259; numbers beyond Double's range are rejected).
    public static func parse(_ bytes: [UInt8]) throws(JSONPathError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.document()
    }

    /// Parses JSON text.
    public static func parse(_ text: String) throws(JSONPathError) -> JSONValue { try parse(Array(text.utf8)) }
}


/// A recursive-descent JSON parser over bytes that knows the path of the value it is reading,
/// so even syntax errors (a NaN, a missing comma) name where they are.
struct JSONParser {
    let bytes: [UInt8]
    var i = 0
    var depth = 0
    var path: [String] = []

    init(bytes: [UInt8]) { self.bytes = bytes }

    var currentPath: String {
        var out = ""
        for p in path { out += (p.hasPrefix("[") || out.isEmpty) ? p : "." + p }
        return out
    }

    func error(_ reason: String) -> JSONPathError {
        var line = 1, column = 1
        for k in 0..<min(i, bytes.count) {
            if bytes[k] == 0x0A { line += 1; column = 1 } else { column += 1 }
        }
        return JSONPathError(currentPath, "invalid JSON at line \(line) column \(column): \(reason)")
    }

    mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    mutating func document() throws(JSONPathError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        let v = try value()
        skipSpace()
        if i != bytes.count { throw error("unexpected text after the document") }
        return v
    }

    mutating func value() throws(JSONPathError) -> JSONValue {
        skipSpace()
        guard i < bytes.count else { throw error("unexpected end of input") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "N"), UInt8(ascii: "I"): throw error("NaN and infinities are not numbers in JSON")
        default:
            if bytes[i] == UInt8(ascii: "-"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "I") {
                throw error("NaN and infinities are not numbers in JSON")
            }
            return .number(try number())
        }
    }

    mutating func literal(_ word: String) throws(JSONPathError) {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else { throw error("unknown literal") }
        i += w.count
    }

    mutating func enter() throws(JSONPathError) {
        depth += 1
        if depth > 200 { throw error("nesting deeper than 200") }
    }

    mutating func object() throws(JSONPathError) -> JSONValue {
        try enter()
        i += 1
        var fields: [(key: String, value: JSONValue)] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; depth -= 1; return .object(fields) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a field name") }
            let key = try string()
            if fields.contains(where: { $0.key == key }) { throw error("duplicate field \"\(key)\"") }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':'") }
            i += 1
            path.append(key)
            fields.append((key, try value()))
            path.removeLast()
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of input") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; break }
            throw error("expected ',' or '}'")
        }
        depth -= 1
        return .object(fields)
    }

    mutating func array() throws(JSONPathError) -> JSONValue {
        try enter()
        i += 1
        var elements: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; depth -= 1; return .array(elements) }
        while true {
            path.append("[\(elements.count)]")
            elements.append(try value())
            path.removeLast()
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of input") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; break }
            throw error("expected ',' or ']'")
        }
        depth -= 1
        return .array(elements)
    }

    mutating func hex4() throws(JSONPathError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            i += 1
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw error("bad \\u escape")
            }
            v = v << 4 | d
        }
        return v
    }

    mutating func string() throws(JSONPathError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let c = bytes[i]
            i += 1
            if c == UInt8(ascii: "\"") { break }
            if c < 0x20 { throw error("control character in string") }
            if c != UInt8(ascii: "\\") { out.append(c); continue }
            guard i < bytes.count else { throw error("unterminated string") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("lone surrogate")
                    }
                    i += 2
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw error("bad surrogate pair") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("bad \\u escape") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw error("bad escape")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in string") }
        return s
    }

    mutating func number() throws(JSONPathError) -> Double {
        let start = i
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        var digits = 0
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1; digits += 1 }
        if digits == 0 { throw error("unexpected character") }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            var fraction = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1; fraction += 1 }
            if fraction == 0 { throw error("digits expected after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            var exponent = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1; exponent += 1 }
            if exponent == 0 { throw error("digits expected in exponent") }
        }
        guard let text = String(validating: bytes[start..<i], as: UTF8.self), let v = Double(text) else {
            throw error("bad number")
        }
        return v
    }
}
