import Testing
import QixCards
import QixDynamics
import QixScenes

/// Replays every golden run of corpus/scenes/cards/GOLDEN and fails on any difference, naming the
/// first frame whose state hash diverges from the recorded `<gestures>.frames`.
@Suite struct GoldenRunTests {
    struct Golden {
        var deck: String
        var gestures: String
        var hash: String
        var frames: Int
    }

    static func goldens() throws -> [Golden] {
        try Corpus.text("GOLDEN").split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let f = line.split(separator: " ").map(String.init)
            return Golden(deck: f[0], gestures: f[1], hash: f[2], frames: Int(f[3]) ?? -1)
        }
    }

    @Test func everyGoldenRunReplaysBitForBit() throws {
        let runs = try Self.goldens()
        #expect(runs.count >= 5)
        for golden in runs {
            let recorded = try Corpus.text(String(golden.gestures.dropLast(".gestures.json".count)) + ".frames")
                .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            let deck = try Corpus.deck(golden.deck, golden.gestures)
            var firstDivergence: Int?
            deck.run(duration: nil) { _ in
                let k = deck.frame - 1
                let now = StateHash.hex(StateHash.of(deck.allCards))
                if firstDivergence == nil, k >= recorded.count || recorded[k][1] != now { firstDivergence = deck.frame }
            }
            let final = StateHash.hex(StateHash.of(deck.allCards))
            #expect(firstDivergence == nil, "\(golden.deck) + \(golden.gestures): trace diverges at frame \(firstDivergence ?? 0)")
            #expect(deck.frame == golden.frames, "\(golden.gestures): ran \(deck.frame) frames, golden \(golden.frames)")
            #expect(final == golden.hash, "\(golden.gestures): hash \(final), golden \(golden.hash)")
        }
    }
}
