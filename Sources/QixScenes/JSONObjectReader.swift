import QixDynamics
/// Reads the fields of one JSON object with typed accessors that name the failing path,
/// and rejects fields it was not told about.
public struct JSONObjectReader {
    /// Path of this object (`behaviors[2]`).
    public let path: String
    private let fields: [(key: String, value: JSONValue)]

    /// A reader over `value`, which must be an object.
    public init(_ value: JSONValue, path: String) throws(JSONPathError) {
        guard case .object(let fields) = value else { throw JSONPathError(path, "expected an object, found \(value.typeName)") }
        self.path = path
        self.fields = fields
    }

    /// The path of a field of this object.
    public func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Fails on the first field not in `allowed`.
    public func allowOnly(_ allowed: [String]) throws(JSONPathError) {
        for f in fields where !allowed.contains(f.key) { throw JSONPathError(path(f.key), "unknown field") }
    }

    /// Whether the field is present.
    public func has(_ key: String) -> Bool { fields.contains { $0.key == key } }

    /// The raw value of a field, if present.
    public func value(_ key: String) -> JSONValue? { fields.first { $0.key == key }?.value }

    /// The raw value of a required field.
    public func required(_ key: String) throws(JSONPathError) -> JSONValue {
        guard let v = value(key) else { throw JSONPathError(path(key), "missing required field") }
        return v
    }

    /// A finite number.
    public static func number(_ v: JSONValue, path: String) throws(JSONPathError) -> Double {
        guard case .number(let x) = v else { throw JSONPathError(path, "expected a number, found \(v.typeName)") }
        guard x.isFinite else { throw JSONPathError(path, "number is not finite") }
        // Finite is not enough: 1e308 passes, then squares and sums overflow to NaN mid-run.
        guard abs(x) <= largestNumber else { throw JSONPathError(path, "must be within +-1e9") }
        return x
    }

    /// The largest magnitude any number in a scene or deck file may have: far beyond any
    /// screen, mass or force a UIKit scene uses, and small enough that the engine's
    /// products and squares stay finite.
    public static let largestNumber = 1e9

    /// An optional finite number field.
    public func number(_ key: String) throws(JSONPathError) -> Double? {
        guard let v = value(key) else { return nil }
        return try Self.number(v, path: path(key))
    }

    /// A number field with a default, optionally required to lie in a range.
    public func number(_ key: String, default fallback: Double, in range: ClosedRange<Double>? = nil) throws(JSONPathError) -> Double {
        let x = try number(key) ?? fallback
        if let range, !range.contains(x) {
            throw JSONPathError(path(key), "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return x
    }

    /// A required number field.
    public func requiredNumber(_ key: String) throws(JSONPathError) -> Double {
        try Self.number(try required(key), path: path(key))
    }

    /// A `[x, y]` pair.
    public static func vector(_ v: JSONValue, path: String) throws(JSONPathError) -> Vector2 {
        guard case .array(let a) = v, a.count == 2 else { throw JSONPathError(path, "expected [x, y]") }
        return Vector2(try number(a[0], path: "\(path)[0]"), try number(a[1], path: "\(path)[1]"))
    }

    /// An optional `[x, y]` field.
    public func vector(_ key: String) throws(JSONPathError) -> Vector2? {
        guard let v = value(key) else { return nil }
        return try Self.vector(v, path: path(key))
    }

    /// A required `[x, y]` field.
    public func requiredVector(_ key: String) throws(JSONPathError) -> Vector2 {
        try Self.vector(try required(key), path: path(key))
    }

    /// An optional string field.
    public func string(_ key: String) throws(JSONPathError) -> String? {
        guard let v = value(key) else { return nil }
        guard case .string(let s) = v else { throw JSONPathError(path(key), "expected a string, found \(v.typeName)") }
        return s
    }

    /// A required string field.
    public func requiredString(_ key: String) throws(JSONPathError) -> String {
        guard let s = try string(key) else { throw JSONPathError(path(key), "missing required field") }
        return s
    }

    /// An optional boolean field.
    public func bool(_ key: String) throws(JSONPathError) -> Bool? {
        guard let v = value(key) else { return nil }
        guard case .bool(let b) = v else { throw JSONPathError(path(key), "expected true or false, found \(v.typeName)") }
        return b
    }

    /// An optional array field.
    public func array(_ key: String) throws(JSONPathError) -> [JSONValue]? {
        guard let v = value(key) else { return nil }
        guard case .array(let a) = v else { throw JSONPathError(path(key), "expected an array, found \(v.typeName)") }
        return a
    }
}
