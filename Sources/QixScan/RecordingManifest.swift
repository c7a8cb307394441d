import Foundation

/// A manifest's content: UTF-8 text listing one recording path per line, `#` starting a
/// comment line, and relative paths taken from the manifest's folder.
enum RecordingManifest {
    /// The paths that `bytes` lists, in order, relative ones joined to `folder`; nil when
    /// the bytes are not UTF-8 text.
    static func paths(in bytes: [UInt8], folder: String) -> [String]? {
        guard var text = String(validating: bytes, as: UTF8.self) else { return nil }
        // Editors on Windows start UTF-8 files with a byte-order mark; it is not part of
        // the first path (Foundation's file reading dropped it too).
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var paths: [String] = []
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            paths.append(line.hasPrefix("/") || folder.isEmpty ? line : folder + "/" + line)
        }
        return paths
    }
}
