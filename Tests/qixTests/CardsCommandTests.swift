import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `qix cards`: events in the trace, the golden hash, and the SVG and HTML renders.
@Suite("qix cards")
struct CardsCommandTests {
    static let dir = "\(QixProcess.repository)/corpus/scenes/cards"

    @Test("a fling sequence reports the page events, matches its golden hash and renders well-formed files")
    func flingSequence() throws {
        let out = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try QixProcess.run(["cards", "\(Self.dir)/two-pages.deck.json", "--gestures", "\(Self.dir)/fling-both.gestures.json",
                                         "--trace", "\(out)/t.jsonl", "--hash", "--render", "\(out)/run.html"])
        #expect(result.status == 0)
        let golden = try String(contentsOfFile: "\(Self.dir)/GOLDEN", encoding: .utf8)
            .split(separator: "\n").first { $0.contains("fling-both") }.map { String($0.split(separator: " ")[2]) }
        #expect(result.stdoutLines.last == "hash: \(golden ?? "?")")
        var types: [String] = []
        for line in try String(contentsOfFile: "\(out)/t.jsonl", encoding: .utf8).split(separator: "\n") {
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for e in object["events"] as? [[String: Any]] ?? [] {
                if let t = e["type"] as? String, !t.hasPrefix("contact"), t != "paused", t != "resumed" { types.append(t) }
            }
        }
        #expect(types.first == "pageShown" && types.last == "deckFinished")
        #expect(types.filter { $0 == "flung" }.count == 2)
        #expect(types.filter { $0 == "pageDismissed" }.count == 2)
        // The HTML's SVG part is well-formed XML.
        let html = try String(contentsOfFile: "\(out)/run.html", encoding: .utf8)
        let start = try #require(html.range(of: "<svg"))
        let end = try #require(html.range(of: "</svg>"))
        let svg = String(html[start.lowerBound..<end.upperBound])
        let document = try XMLDocument(xmlString: svg)
        #expect(document.rootElement()?.name == "svg")
        #expect(svg.contains("<animate"))

        let strip = try QixProcess.run(["cards", "\(Self.dir)/two-pages.deck.json", "--gestures", "\(Self.dir)/fling-both.gestures.json",
                                        "--render", "\(out)/strip.svg"])
        #expect(strip.status == 0)
        let stripDocument = try XMLDocument(contentsOf: URL(fileURLWithPath: "\(out)/strip.svg"))
        #expect(stripDocument.rootElement()?.name == "svg")
    }

    @Test("gestures out of time order are reported with their JSON path")
    func badGestures() throws {
        let out = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let path = "\(out)/g.json"
        try #"[{"card": "a", "points": [[1, 0, 0]]}, {"card": "b", "points": [[0.5, 0, 0]]}]"#.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try QixProcess.run(["cards", "\(Self.dir)/two-pages.deck.json", "--gestures", path])
        #expect(result.status == 1)
        #expect(result.stderrLines.first?.hasPrefix("qix: error: invalid gestures (\(path): [1].points[0][0]): ") == true)
    }
}
