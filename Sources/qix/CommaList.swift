import Foundation

/// The one reading of a comma-separated option (`--expect`, `--seconds`, `--attacks`): values
/// may be repeated or hold several items, items are trimmed, and empty items are kept, so a
/// stray comma or an empty list is refused by the option's own check instead of vanishing.
enum CommaList {
    /// The trimmed items of every value, in order.
    static func items(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
