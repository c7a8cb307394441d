#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QixCards

/// Access to corpus/scenes/cards for the tests.
enum Corpus {
    struct Missing: Error { let path: String }

    static let directory: String = {
        let parts = String(#filePath).split(separator: "/").dropLast(3)
        return "/" + parts.joined(separator: "/") + "/corpus/scenes/cards/"
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        let path = directory + name
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

    static func text(_ name: String) throws -> String { String(decoding: try bytes(name), as: UTF8.self) }

    /// A deck from the corpus with a gesture file (or none).
    static func deck(_ deckName: String, _ gestureName: String?) throws -> CardDeck {
        let deck = try Deck.load(try bytes(deckName))
        let gestures = try gestureName.map { try GestureScript.load(try bytes($0), deck: deck) } ?? GestureScript()
        return try CardDeck(deck: deck, gestures: gestures)
    }

    /// Names in the corpus directory with a suffix, sorted.
    static func names(endingWith suffix: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            if name.hasSuffix(suffix) { out.append(name) }
        }
        return out.sorted()
    }
}
