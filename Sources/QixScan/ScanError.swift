/// A failure of scanning, the airings database or a report, phrased for a one-line
/// user error: `<what> (<subject>): <reason>`.
public struct ScanError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, in a few words.
    public var what: String
    /// The file, database or option the error is about.
    public var subject: String
    /// Why.
    public var reason: String

    /// Makes an error from its three parts.
    public init(_ what: String, _ subject: String, _ reason: String) {
        self.what = what
        self.subject = subject
        self.reason = reason
    }

    /// The one-line form.
    public var description: String { "\(what) (\(subject)): \(reason)" }
}
