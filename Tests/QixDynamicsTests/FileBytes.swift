#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads fixture files for tests.
enum FileBytes {
    struct Missing: Error { let path: String }

    static func read(_ path: String) throws -> [UInt8] {
        guard let f = fopen(path, "rb") else { throw Missing(path: path) }
        defer { fclose(f) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, 65536, f) }
            out.append(contentsOf: chunk[0..<n])
            if n < 65536 { break }
        }
        return out
    }
}
