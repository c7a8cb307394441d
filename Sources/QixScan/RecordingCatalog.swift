import Foundation

/// Expands the inputs of a scan into the list of recordings: files as given, directories
/// walked recursively, and manifests (text files listing one path per line).
///
/// The order is deterministic (inputs in the order given, directory entries sorted by
/// name, duplicates removed) so that shards and re-runs see the same list.
public struct RecordingCatalog: Sendable {
    /// Extensions taken as audio when walking directories (which decoder reads a file is
    /// then decided from its content): libsndfile's formats, and the broadcast containers
    /// and video files FFmpeg's libraries read.
    public static let audioExtensions: Set<String> = [
        "wav", "wave", "flac", "ogg", "oga", "opus", "mp3", "aif", "aiff", "aifc", "au", "caf", "w64", "rf64",
        "aac", "adts", "m4a", "mp4", "m4v", "mov", "ts", "mts", "m2ts", "ac3", "eac3", "mp2", "mka", "mkv", "webm",
    ]
    /// Extensions of manifest files (one path per line; `#` starts a comment; relative
    /// paths are relative to the manifest's folder).
    public static let manifestExtensions: Set<String> = ["txt", "list", "lst", "m3u", "m3u8"]

    /// Recordings found, in scan order.
    public private(set) var paths: [String] = []
    /// Inputs that could not be expanded, with the reason.
    public private(set) var problems: [ScanError] = []

    /// Expands `inputs`.
    public init(inputs: [String]) {
        var seen = Set<String>()
        for input in inputs { expand(input, seen: &seen, depth: 0) }
    }

    private mutating func add(_ path: String, seen: inout Set<String>) {
        if seen.insert(path).inserted { paths.append(path) }
    }

    private mutating func expand(_ input: String, seen: inout Set<String>, depth: Int) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
            // Missing files stay in the list so that the scan records them as failed.
            add(input, seen: &seen)
            return
        }
        if isDirectory.boolValue {
            walk(input, seen: &seen)
            return
        }
        let ext = (input as NSString).pathExtension.lowercased()
        if Self.manifestExtensions.contains(ext) {
            guard depth < 4 else {
                problems.append(ScanError("cannot read manifest", input, "manifests nested more than 4 deep"))
                return
            }
            readManifest(input, seen: &seen, depth: depth)
        } else {
            add(input, seen: &seen)
        }
    }

    private mutating func walk(_ directory: String, seen: inout Set<String>) {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else {
            problems.append(ScanError("cannot read directory", directory, "permission denied"))
            return
        }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                enumerator.skipDescendants()
                continue
            }
            if Self.audioExtensions.contains((relative as NSString).pathExtension.lowercased()) {
                found.append(relative)
            }
        }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        for relative in found.sorted() {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: prefix + relative, isDirectory: &isDirectory), !isDirectory.boolValue {
                add(prefix + relative, seen: &seen)
            }
        }
    }

    private mutating func readManifest(_ manifest: String, seen: inout Set<String>, depth: Int) {
        guard let data = FileManager.default.contents(atPath: manifest) else {
            problems.append(ScanError("cannot read manifest", manifest, "permission denied or unreadable"))
            return
        }
        let folder = (manifest as NSString).deletingLastPathComponent
        guard let paths = RecordingManifest.paths(in: Array(data), folder: folder) else {
            problems.append(ScanError("cannot read manifest", manifest, "not readable UTF-8 text"))
            return
        }
        for path in paths { expand(path, seen: &seen, depth: depth + 1) }
    }
}
