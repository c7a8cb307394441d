import Testing
import QixTestSupport
import QixCards
import QixDynamics
import QixScenes

/// Seeded mutants of the corpus scenes, decks and gesture files (numbers set to huge, tiny,
/// negative or zero values) either fail to load with a path, stop with a divergence report, or
/// end in a finite state: none traps, and no NaN state is ever hashed. `Tests/Mutation/run.sh`
/// runs more of them through `qix`.
@Suite struct MutationTests {
    static let extremes = ["1e308", "-1e308", "1.7e19", "-1.7e19", "1e9", "-1e9", "3.12e8", "-3.12e8", "1e6", "-1e6",
                           "2e5", "1000", "-1000", "1e-300", "-1e-300", "5e-324", "0", "-0.0", "-1", "1", "0.5"]

    /// Byte ranges of the numbers of a JSON text (outside strings).
    static func numberRanges(_ text: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var k = 0, inString = false
        while k < text.count {
            let c = text[k]
            if inString {
                if c == UInt8(ascii: "\\") { k += 1 } else if c == UInt8(ascii: "\"") { inString = false }
                k += 1
            } else if c == UInt8(ascii: "\"") {
                inString = true
                k += 1
            } else if c == UInt8(ascii: "-") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) {
                let start = k
                while k < text.count, "0123456789+-.eE".utf8.contains(text[k]) { k += 1 }
                ranges.append(start..<k)
            } else {
                k += 1
            }
        }
        return ranges
    }

    /// `text` with one to three of its numbers replaced by extremes.
    static func mutate(_ text: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var out = text
        let ranges = numberRanges(text)
        let picks = (0..<Int.random(in: 1...3, using: &rng)).map { _ in ranges.randomElement(using: &rng)! }
        // Replaced from the end so earlier ranges stay valid.
        for r in Set(picks).sorted(by: { $0.lowerBound > $1.lowerBound }) {
            out.replaceSubrange(r, with: Array(extremes.randomElement(using: &rng)!.utf8))
        }
        return out
    }

    enum Outcome: Equatable { case refused, diverged, finished }

    static func finite(_ items: [DynamicItem]) -> Bool {
        items.allSatisfy { $0.center.isFinite && $0.velocity.isFinite && $0.angle.isFinite && $0.angularVelocity.isFinite }
    }

    /// Runs a scene for at most 2 s.
    static func runScene(_ bytes: [UInt8]) -> Outcome {
        guard let scene = try? SceneLoader.load(bytes) else { return .refused }
        for _ in 0..<Int(2 * scene.frameRate) {
            _ = scene.advanceFrame()
            if scene.animator.divergence != nil { return .diverged }
        }
        #expect(finite(scene.items), "a scene mutant ended with a non-finite state")
        return .finished
    }

    /// Runs a deck with gestures for at most 2 s.
    static func runDeck(_ deckBytes: [UInt8], _ gestureBytes: [UInt8]) -> Outcome {
        guard let deck = try? Deck.load(deckBytes), let gestures = try? GestureScript.load(gestureBytes, deck: deck),
              let cards = try? CardDeck(deck: deck, gestures: gestures) else { return .refused }
        cards.run(duration: 2) { _ in }
        if cards.animator.divergence != nil { return .diverged }
        #expect(finite(cards.allCards), "a deck mutant ended with a non-finite state")
        return .finished
    }

    @Test func twoHundredMutantsNeitherTrapNorHashNaN() throws {
        let scenes = try ["contract-example.json", "cards10.json"].map { try Corpus.bytes("../" + $0) }
        let decks = try ["two-pages.deck.json", "three-pages.deck.json"].map(Corpus.bytes)
        let gestures = try ["slow-drag", "fling-both", "fling-sequence", "push-together", "second-finger"]
            .map { try Corpus.bytes($0 + ".gestures.json") }
        var rng = SplitMix64(seed: 2026)
        var outcomes: [Outcome] = []
        for n in 0..<200 {
            let deck = decks.randomElement(using: &rng)!, gesture = gestures.randomElement(using: &rng)!
            switch n % 3 {
            case 0: outcomes.append(Self.runScene(Self.mutate(scenes.randomElement(using: &rng)!, &rng)))
            case 1: outcomes.append(Self.runDeck(Self.mutate(deck, &rng), gesture))
            default: outcomes.append(Self.runDeck(deck, Self.mutate(gesture, &rng)))
            }
        }
        // The mutants reach every outcome, so the run tests something besides the loaders.
        #expect(outcomes.count == 200)
        #expect(outcomes.contains(.finished) && outcomes.contains(.refused))
    }
}
