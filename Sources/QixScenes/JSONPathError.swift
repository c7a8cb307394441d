/// A problem at a place in a JSON document: the path (or line and column for syntax errors) and why.
public struct JSONPathError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Where: `behaviors[3].items[1]`, or `line 4 column 7`.
    public var path: String
    /// Why.
    public var reason: String

    /// An error at `path`.
    public init(_ path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`, or `(top level): reason`.
    public var description: String { "\(path.isEmpty ? "(top level)" : path): \(reason)" }
}
