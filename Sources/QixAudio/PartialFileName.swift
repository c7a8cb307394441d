import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hidden name a file is written under before it is renamed into place,
/// `<folder>/.<name>.partial-<pid>`, and the sweep of partial files left by dead processes.
public struct PartialFileName: Sendable {
    /// The destination's folder, with its trailing slash ("" for the working folder).
    public let directory: String
    /// The partial file's path.
    public let partialPath: String

    /// The partial name this process uses for `destination`.
    public init(destination: String, pid: pid_t = getpid()) {
        let slash = destination.lastIndex(of: "/")
        let folder = slash.map { String(destination[...$0]) } ?? ""
        let name = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
        directory = folder
        partialPath = "\(folder).\(name).partial-\(pid)"
    }

    /// The pid in a partial file's name, when `name` is one (`.<name>.partial-<digits>`).
    public static func writerPID(ofPartialNamed name: String) -> pid_t? {
        guard name.hasPrefix("."), let marker = name.range(of: ".partial-", options: .backwards),
              marker.lowerBound > name.index(after: name.startIndex) else { return nil }
        let digits = name[marker.upperBound...]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let pid = pid_t(digits), pid > 0 else { return nil }
        return pid
    }

    /// Removes the partial files in `directory` whose writer no longer runs (a `kill -9`,
    /// a power cut); returns their names. Partial files of live processes, this one's and
    /// other users' are left alone.
    @discardableResult
    public static func sweepStale(in directory: String) -> [String] {
        guard let folder = opendir(directory.isEmpty ? "." : directory) else { return [] }
        defer { closedir(folder) }
        var removed: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            guard let pid = writerPID(ofPartialNamed: name), pid != getpid() else { continue }
            // ESRCH: no such process. EPERM means it runs under another user: leave it.
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            if unlink(directory + name) == 0 { removed.append(name) }
        }
        return removed
    }
}
