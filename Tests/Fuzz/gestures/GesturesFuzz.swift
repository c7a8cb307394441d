// libFuzzer harness for the gesture-script loader (`qix cards --gestures G`), built with
// ASan by Tests/Fuzz/run.sh: any bytes, read against the corpus's three-page deck, must
// load or give a JSONPathError, never trap.
import Foundation
import QixCards

/// The deck gestures are checked against (card ids), loaded once.
let fuzzDeck: Deck = {
    let path = ProcessInfo.processInfo.environment["QIX_FUZZ_DECK"] ?? "corpus/scenes/cards/three-pages.deck.json"
    guard let data = FileManager.default.contents(atPath: path), let deck = try? Deck.load(Array(data)) else {
        fatalError("gesture fuzzing needs the deck \(path) (set QIX_FUZZ_DECK)")
    }
    return deck
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func gesturesFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = try? GestureScript.load(Array(UnsafeBufferPointer(start: data, count: size)), deck: fuzzDeck)
    return 0
}
