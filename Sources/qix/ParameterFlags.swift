import QixDSP

/// The CLI's names for the library parameters that errors can be about: libraries say
/// `sampleRate`, the user typed `--rate`, so the error line names what the user typed.
enum ParameterFlags {
    /// Library parameter name to the flag that sets it.
    static let flags: [String: String] = [
        "sampleRate": "--rate", "channels": "--channels", "sampleFormat": "--format",
        "strength": "--strength", "message": "--message",
        "excitationLimit": "--excitation-limit", "largestDepth": "--largest-depth", "maskMargin": "--mask-margin",
        "namePattern": "--name-pattern", "shard": "--shard", "shardCount": "--shard-count",
        "seconds": "--seconds", "attacks": "--attacks", "trials": "--trials", "campaigns": "--campaigns",
        "clipsDirectory": "--clips",
    ]

    /// The one-line form of `error` after `qix: error: `, with parameters named as flags.
    static func describe(_ error: Error) -> String {
        guard let failure = error as? QixError else { return "\(error)" }
        return failure.renamingParameter(flags).description
    }
}
