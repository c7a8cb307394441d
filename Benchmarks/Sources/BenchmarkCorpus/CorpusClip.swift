import Foundation

/// Absolute path of a committed corpus clip (`corpus/clips/NAME` in the repository),
/// found from this source file's location so benchmarks run from any directory.
public func corpusClip(_ name: String) -> String {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("corpus/clips/\(name)").path
}
