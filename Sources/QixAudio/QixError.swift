/// A failure phrased for a one-line user error: `<what> (<subject>): <reason>`, the shape
/// the `qix` CLI prints after `qix: error: `. Every QixKit module that reports bad input
/// or failed work throws this one type, under its own domain name (`AudioError`,
/// `WatermarkError`, `ScanError`).
public struct QixError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, in a few words ("cannot read audio").
    public var what: String
    /// The file path, option or field the error is about.
    public var subject: String
    /// Why, in the user's terms.
    public var reason: String

    /// Makes an error from its three parts.
    public init(_ what: String, _ subject: String, _ reason: String) {
        self.what = what
        self.subject = subject
        self.reason = reason
    }

    /// The one-line form: `<what> (<subject>): <reason>`.
    public var description: String { "\(what) (\(subject)): \(reason)" }
}

/// Errors reading, writing or converting audio.
public typealias AudioError = QixError
