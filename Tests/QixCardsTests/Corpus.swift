import Foundation
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
        guard let data = FileManager.default.contents(atPath: path) else { throw Missing(path: path) }
        return [UInt8](data)
    }

    static func text(_ name: String) throws -> String { String(decoding: try bytes(name), as: UTF8.self) }

    /// A deck from the corpus with a gesture file (or none).
    static func deck(_ deckName: String, _ gestureName: String?) throws -> CardDeck {
        let deck = try Deck.load(try bytes(deckName))
        let gestures = try gestureName.map { try GestureScript.load(try bytes($0), deck: deck) } ?? GestureScript()
        return try CardDeck(deck: deck, gestures: gestures)
    }
}
