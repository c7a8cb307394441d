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
    /// The library parameter the error is about (`sampleRate`, `strength`), when it is one:
    /// libraries name their parameters, and a front end maps them to its own flags or fields.
    public var parameter: String?

    /// Makes an error from its three parts.
    public init(_ what: String, _ subject: String, _ reason: String) {
        self.what = what
        self.subject = subject
        self.reason = reason
    }

    /// Makes an error about a parameter's value; the subject is the parameter's name until a
    /// front end renames it (`renamingParameter`).
    public init(_ what: String, parameter: String, _ reason: String) {
        self.init(what, parameter, reason)
        self.parameter = parameter
    }

    /// The same error with its subject given the front end's name for the parameter, when
    /// `names` has one (the CLI's flags); other errors come back unchanged.
    public func renamingParameter(_ names: [String: String]) -> QixError {
        guard let parameter, let name = names[parameter] else { return self }
        var renamed = self
        renamed.subject = name
        return renamed
    }

    /// The one-line form: `<what> (<subject>): <reason>`.
    public var description: String { "\(what) (\(subject)): \(reason)" }
}

/// Errors reading, writing or converting audio.
public typealias AudioError = QixError
