import Testing
import QixCards
import QixDynamics
import QixScenes

@Suite struct DeckLoaderTests {
    private let goodDeck = #"{"screen": [390, 844], "flingThreshold": 800, "pages": [[{"id": "a", "size": [100, 100]}, {"id": "b", "size": [100, 100]}]]}"#

    private func deckError(_ json: String) -> JSONPathError? {
        do { _ = try Deck.load(Array(json.utf8)); return nil } catch { return error }
    }

    private func gestureError(_ json: String) -> JSONPathError? {
        do {
            let deck = try Deck.load(Array(goodDeck.utf8))
            _ = try GestureScript.load(Array(json.utf8), deck: deck)
            return nil
        } catch {
            return error
        }
    }

    @Test func restPointsAndFingersFarOffTheScreenAreRefused() {
        let far = #"{"screen": [390, 844], "flingThreshold": 800, "pages": [[{"id": "a", "size": [100, 100], "offset": [0, 100000000.0]}]]}"#
        #expect(deckError(far)?.path == "pages[0][0].offset")
        let edge = #"{"screen": [390, 844], "flingThreshold": 800, "pages": [[{"id": "a", "size": [100, 100], "offset": [585, -1266]}]]}"#
        #expect(deckError(edge) == nil)
        #expect(gestureError(#"[{"card": "a", "points": [[1.5, 105, -312000000.0], [1.6, 115, 290]]}]"#)?.path == "[0].points[0][2]")
        #expect(gestureError(#"[{"card": "a", "points": [[1.5, 105, 300], [1.6, 781, 290]]}]"#)?.path == "[0].points[1][1]")
        #expect(gestureError(#"[{"card": "a", "points": [[1.5, -390, -844], [1.6, 780, 1688]]}]"#) == nil)
    }

    @Test func badDecksNameTheirPath() {
        #expect(deckError(#"{"screen": [390, 844], "flingThreshold": 800, "pages": [[]]}"#)?.path == "pages[0]")
        #expect(deckError(#"{"screen": [390, 844], "flingThreshold": 800, "pages": [[{"id": "a", "size": [-5, 10]}]]}"#)?.path == "pages[0][0].size")
        #expect(deckError(#"{"screen": [390, 844], "flingThreshold": 8, "pages": [[{"id": "a", "size": [NaN, 10]}]]}"#)?.path == "pages[0][0].size[0]")
        #expect(deckError(#"{"screen": [390, 844], "flingThreshold": 1e999, "pages": [[{"id": "a", "size": [5, 10]}]]}"#)?.path == "flingThreshold")
        #expect(deckError(#"{"screen": [390, 844], "flingThreshold": 8, "pages": [[{"id": "a", "size": [5, 10]}], [{"id": "a", "size": [5, 10]}]]}"#)?.path == "pages[1][0].id")
        #expect(deckError(#"{"screen": [390, 844], "flingThreshold": 8, "pages": [[{"id": "a", "components": [{"height": -3}]}]]}"#)?.path == "pages[0][0].components[0].height")
        #expect(deckError(#"{"screen": [390, 844], "flingThreshold": 8, "pages": [[{"id": "a", "size": [5, 10], "colour": 1}]]}"#)?.path == "pages[0][0].colour")
    }

    @Test func badGesturesNameTheirPath() {
        #expect(gestureError(#"[{"card": "zz", "points": [[0, 1, 2]]}]"#)?.path == "[0].card")
        #expect(gestureError(#"[{"card": "a", "points": [[1, 1, 2]]}, {"card": "b", "points": [[0.5, 1, 2]]}]"#)?.path == "[1].points[0][0]")
        #expect(gestureError(#"[{"card": "a", "points": [[1, 1, 2], [1, 3, 4]]}]"#)?.path == "[0].points[1][0]")
        #expect(gestureError(#"[{"card": "a", "points": [[1, 1, "x"]]}]"#)?.path == "[0].points[0][2]")
        #expect(gestureError(#"{"card": "a"}"#)?.path == "")
    }

    @Test func releaseVelocityUsesTheLastFiftyMilliseconds() {
        let touch = Touch(card: "a", times: [0, 1, 1.1], points: [Vector2(0, 0), Vector2(0, 0), Vector2(100, 0)])
        // Over 1.05 ... 1.1 s the finger moves 50 points: 1000 points/s.
        #expect(abs(touch.releaseVelocity.x - 1000) < 1e-9)
    }
}
