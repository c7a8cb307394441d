import Testing
import QixCards
import QixDynamics
import QixScenes

@Suite struct CardDeckTests {
    /// Overlap depth of two convex outlines (0 when apart), by the separating-axis test.
    static func penetration(_ a: [Vector2], _ b: [Vector2]) -> Double {
        var depth = Double.infinity
        for poly in [a, b] {
            for k in 0..<poly.count {
                let e = poly[(k + 1) % poly.count] - poly[k]
                let n = Vector2(e.y, -e.x).normalized
                let pa = a.map { n.dot($0) }, pb = b.map { n.dot($0) }
                let overlap = min(pa.max()!, pb.max()!) - max(pa.min()!, pb.min()!)
                if overlap <= 0 { return 0 }
                depth = min(depth, overlap)
            }
        }
        return depth
    }

    @Test func flingsDismissBothPagesAndFinish() throws {
        let deck = try Corpus.deck("two-pages.deck.json", "fling-both.gestures.json")
        var events: [CardEvent] = []
        var belowAtDismissal = true
        deck.run(duration: nil) { frameEvents in
            for e in frameEvents {
                if case .pageDismissed(1) = e { belowAtDismissal = belowAtDismissal && deck.pages[0].allSatisfy { $0.center.y - 0.5 * $0.size.length > 844 } }
                if case .pageDismissed(2) = e { belowAtDismissal = belowAtDismissal && deck.pages[1].allSatisfy { $0.center.y - 0.5 * $0.size.length > 844 } }
            }
            events += frameEvents.filter { if case .physics = $0 { return false } else { return true } }
        }
        let flung1 = events.firstIndex { if case .flung(1, "a", _) = $0 { return true } else { return false } }
        let dismissed1 = events.firstIndex(of: .pageDismissed(page: 1))
        let shown2 = events.firstIndex(of: .pageShown(page: 2))
        let flung2 = events.firstIndex { if case .flung(2, "c", _) = $0 { return true } else { return false } }
        let finished = events.firstIndex(of: .deckFinished)
        #expect(flung1 != nil && dismissed1 != nil && shown2 != nil && flung2 != nil && finished != nil)
        if let flung1, let dismissed1, let shown2, let flung2, let finished {
            #expect(flung1 < dismissed1 && dismissed1 < shown2 && shown2 < flung2 && flung2 < finished)
        }
        #expect(deck.isFinished)
        // Every card of a flung page was entirely below the screen when its page was dismissed.
        #expect(belowAtDismissal)
    }

    @Test func slowDragSettlesBackAndTheRopePullsTheOtherCard() throws {
        let deck = try Corpus.deck("two-pages.deck.json", "slow-drag.gestures.json")
        let a = deck.pages[0][0], b = deck.pages[0][1]
        let restA = Vector2(195, 322), restB = Vector2(195, 522)
        var flung = false
        var bMoved = 0.0
        var worstRope = 0.0
        var backAt: Double?
        let lift = 3.3
        deck.run(duration: 6) { events in
            if events.contains(where: { if case .flung = $0 { return true } else { return false } }) { flung = true }
            let t = deck.time
            if t > 2 && t <= lift {
                bMoved = max(bMoved, (b.center - restB).length)
                worstRope = max(worstRope, (b.center - a.center).length)
            }
            if t > lift, backAt == nil, (a.center - restA).length < 2, (b.center - restB).length < 2 { backAt = t }
        }
        #expect(!flung)
        // a back within 2 points of its rest point within 2 s of the lift; b was pulled (> 10 points) and came back.
        #expect(backAt != nil && backAt! - lift <= 2)
        #expect(bMoved > 10)
        // The rope (length 200) stays within 3 %.
        #expect(worstRope <= 200 * 1.03)
    }

    @Test func secondFingerDuringADragChangesNothing() throws {
        let one = try Corpus.deck("two-pages.deck.json", "slow-drag.gestures.json")
        let two = try Corpus.deck("two-pages.deck.json", "second-finger.gestures.json")
        var began: [String] = []
        one.run(duration: 5) { _ in }
        two.run(duration: 5) { events in
            for e in events { if case .dragBegan(let card, _) = e { began.append(card) } }
        }
        #expect(began == ["a"])
        #expect(StateHash.of(one.allCards) == StateHash.of(two.allCards))
    }

    @Test func cardsDraggedTogetherDoNotOverlap() throws {
        let deck = try Corpus.deck("two-pages.deck.json", "push-together.gestures.json")
        let a = deck.pages[0][0], b = deck.pages[0][1]
        var worst = 0.0
        var closest = Double.infinity
        deck.run(duration: 4) { _ in
            if deck.time >= 2 {
                worst = max(worst, Self.penetration(a.outline, b.outline))
                closest = min(closest, (b.center - a.center).length)
            }
        }
        // The drag pushes a 170 points toward b (rest gap 60): they touch but overlap by at most 2 points.
        #expect(closest < 145)
        #expect(worst <= 2)
    }

    @Test func sameDeckAndGesturesGiveTheSameHash() throws {
        func hash() throws -> UInt64 {
            let deck = try Corpus.deck("two-pages.deck.json", "fling-both.gestures.json")
            deck.run(duration: nil) { _ in }
            return StateHash.of(deck.allCards)
        }
        #expect(try hash() == (try hash()))
    }

    @Test func aTouchBesideItsCardIsIgnored() throws {
        // Card a rests 1000 points below the centre (off the screen); a finger at its usual
        // place touches nothing, so nothing is dragged and the deck settles.
        let deck = try Deck.load(Array(#"{"screen": [390, 844], "flingThreshold": 1000, "gravity": 3, "pages": [[{"id": "a", "size": [240, 140], "offset": [0, 1000]}, {"id": "b", "size": [240, 140], "offset": [0, 100]}], [{"id": "c", "components": [{"kind": "text", "height": 60}, {"kind": "image", "height": 120}, {"kind": "footer", "height": 40}]}]]}"#.utf8))
        let cards = try CardDeck(deck: deck, gestures: try GestureScript.load(try Corpus.bytes("slow-drag.gestures.json"), deck: deck))
        var drags = 0
        cards.run(duration: nil) { events in for e in events { if case .dragBegan = e { drags += 1 } } }
        #expect(drags == 0)
        #expect(cards.animator.divergence == nil && cards.isAtRest)
        #expect((cards.pages[0][0].center - Vector2(195, 1422)).length < 2)
        #expect(abs(cards.pages[0][0].angle) < 0.01)
    }

    @Test func componentStackGivesTheCardSize() throws {
        let deck = try Deck.load(try Corpus.bytes("two-pages.deck.json"))
        #expect(deck.pages[1][0].size == Vector2(300, 220))
    }
}
