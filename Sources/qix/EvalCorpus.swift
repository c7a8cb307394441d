import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the corpus's clips folder for `qix eval` when `--clips` is not given, so that eval
/// runs from any directory: `$QIX_CORPUS`, then `corpus/clips` under the current
/// directory, then the corpus of the repository or installation the executable belongs to.
enum EvalCorpus {
    /// The environment variable naming the corpus folder (or its `clips` folder).
    static let variable = "QIX_CORPUS"

    /// The clips folder to use: `given` (`--clips`) as it is, else the first candidate
    /// that is a folder; an error naming every place tried when there is none.
    static func locate(given: String?, environment: [String: String], currentDirectory: String,
                       executable: String?) throws -> String {
        if let given { return given }
        if let named = environment[variable], !named.isEmpty {
            // Set on purpose: a wrong value is an error, not a reason to look elsewhere.
            if isFolder(named + "/clips") { return named + "/clips" }
            if isFolder(named) { return named }
            throw CommandFailure("cannot find the eval corpus", "$\(variable)", "\(named) is not a folder; set it to the corpus folder or give --clips DIR")
        }
        let tried = candidates(currentDirectory: currentDirectory, executable: executable)
        if let found = tried.first(where: isFolder) { return found }
        throw CommandFailure("cannot find the eval corpus", "--clips",
                             "no corpus/clips folder (tried $\(variable), \(tried.joined(separator: ", "))); give --clips DIR")
    }

    /// Where to look, in order: `corpus/clips` under the current directory, then, from the
    /// executable's real folder up to `/`, each folder's `corpus/clips` (a checkout's
    /// `.build/<config>/qix`) and `share/qix/corpus/clips` (an install's `<prefix>/bin/qix`).
    static func candidates(currentDirectory: String, executable: String?) -> [String] {
        var places = [currentDirectory + "/corpus/clips"]
        guard let executable, let real = realPath(executable) else { return places }
        var folder = (real as NSString).deletingLastPathComponent
        while !folder.isEmpty {
            let base = folder == "/" ? "" : folder
            places += [base + "/corpus/clips", base + "/share/qix/corpus/clips"]
            if folder == "/" { break }
            folder = (folder as NSString).deletingLastPathComponent
        }
        var seen = Set<String>()
        return places.filter { seen.insert($0).inserted }
    }

    /// This process's executable, symlinks left for `candidates` to resolve.
    static var currentExecutable: String? { Bundle.main.executablePath ?? CommandLine.arguments.first }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
