import Foundation

/// Reads fixture files for tests.
enum FileBytes {
    struct Missing: Error { let path: String }

    static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw Missing(path: path) }
        return [UInt8](data)
    }
}
