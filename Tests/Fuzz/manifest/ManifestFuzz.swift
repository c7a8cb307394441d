// libFuzzer harness for the scan manifest parser (`qix scan LIST.txt`), built with ASan by
// Tests/Fuzz/run.sh. Byte 0 picks the manifest's folder ("/arch" or none); the rest is the
// file. Any bytes must give a path list or "not UTF-8", never trap, and every path must be
// a whole, trimmed, non-comment line, absolute or joined to the folder.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func manifestFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let folder = data[0] % 2 == 0 ? "/arch" : ""
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    guard let paths = RecordingManifest.paths(in: bytes, folder: folder) else {
        precondition(String(validating: bytes, as: UTF8.self) == nil, "UTF-8 text refused")
        return 0
    }
    let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
    precondition(paths.count <= lines.count, "more paths than lines")
    for path in paths {
        precondition(!path.isEmpty, "an empty path")
        precondition(!path.contains(where: \.isNewline), "a path across lines")
        let line = path.hasPrefix("/") || folder.isEmpty ? Substring(path) : path.dropFirst(folder.count + 1)
        precondition(path.hasPrefix("/") || folder.isEmpty || path.hasPrefix(folder + "/"), "a relative path outside the folder")
        precondition(!line.isEmpty && !line.hasPrefix("#"), "a comment or blank line as a path")
        precondition(line.trimmingCharacters(in: .whitespaces) == String(line), "untrimmed white space")
    }
    return 0
}
