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
        // The player: its controls, and no polygon that changes its point count (Chromium drew those as stray lines).
        for control in ["<button id=\"play\"", "<input id=\"scrub\" type=\"range\"", "<output id=\"time\">"] { #expect(html.contains(control)) }
        #expect(!html.contains("<animate") && !html.contains(" src="))

        let strip = try QixProcess.run(["cards", "\(Self.dir)/two-pages.deck.json", "--gestures", "\(Self.dir)/fling-both.gestures.json",
                                        "--render", "\(out)/strip.svg"])
        #expect(strip.status == 0)
        let stripDocument = try XMLDocument(contentsOf: URL(fileURLWithPath: "\(out)/strip.svg"))
        #expect(stripDocument.rootElement()?.name == "svg")
    }

    @Test("--stats prints what the deck's run cost as one JSON line on stderr, and changes nothing else")
    func stats() throws {
        let arguments = ["cards", "\(Self.dir)/two-pages.deck.json", "--gestures", "\(Self.dir)/fling-both.gestures.json", "--hash", "-q"]
        let result = try QixProcess.run(arguments + ["--stats", "--stats-after", "0.5"])
        #expect(result.status == 0)
        let line = try #require(result.stderrLines.last { $0.hasPrefix("stats: ") })
        let stats = try #require(JSONSerialization.jsonObject(with: Data(line.dropFirst(7).utf8)) as? [String: Any])
        #expect(stats["warm_up_seconds"] as? Double == 0.5)
        let seconds = try #require(stats["seconds"] as? Double)
        #expect(seconds > 0)
        // Steps of 1/120 s over the measured seconds.
        #expect(stats["steps"] as? Int == Int((seconds * 120).rounded()))
        #expect(try #require(stats["peak_kb"] as? Int) > 0)
        let plain = try QixProcess.run(arguments)
        #expect(result.stdoutLines.last == plain.stdoutLines.last)
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

    @Test("the reliability run's card findings give a result or a one-line error, never a trap")
    func findings() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let offset1000 = #"{"screen": [390, 844], "flingThreshold": 1000, "gravity": 3, "pages": [[{"id": "a", "size": [240, 140], "offset": [0, 1000]}, {"id": "b", "size": [240, 140], "offset": [0, 100]}], [{"id": "c", "components": [{"kind": "text", "height": 60}, {"kind": "image", "height": 120}, {"kind": "footer", "height": 40}]}]]}"#
        let offset1e8 = offset1000.replacingOccurrences(of: "[0, 1000]", with: "[0, 100000000.0]")
        let farFinger = #"[{"card": "p1c1", "points": [[1.5, 105, -312000000.0], [1.6, 115, 290], [1.65, 140, 230]]}, {"card": "p2c1", "points": [[4.0, 105, 312], [4.1, 115, 290], [4.15, 140, 230]]}, {"card": "p3c1", "points": [[6.5, 105, 312], [6.6, 115, 290], [6.65, 140, 230]]}]"#
        for (name, text) in [("offset1000.deck.json", offset1000), ("offset1e8.deck.json", offset1e8), ("far.gestures.json", farFinger)] {
            try text.write(toFile: "\(dir)/\(name)", atomically: true, encoding: .utf8)
        }
        // A card resting off the screen: the finger touches nothing, the deck settles.
        let settled = try QixProcess.run(["cards", "\(dir)/offset1000.deck.json", "--gestures", "\(Self.dir)/slow-drag.gestures.json", "--hash"])
        #expect(settled.status == 0)
        #expect(settled.stdoutLines.last?.hasPrefix("hash: ") == true)
        let far = try QixProcess.run(["cards", "\(dir)/offset1e8.deck.json", "--gestures", "\(Self.dir)/slow-drag.gestures.json", "--trace", "-", "--hash"])
        #expect(far.status == 1 && far.stdout.isEmpty)
        #expect(far.stderrLines == ["qix: error: invalid deck (\(dir)/offset1e8.deck.json: pages[0][0].offset): must be within 1.5 screen widths and heights of the centre"])
        let finger = try QixProcess.run(["cards", "\(Self.dir)/three-pages.deck.json", "--gestures", "\(dir)/far.gestures.json", "--hash"])
        #expect(finger.status == 1 && finger.stdout.isEmpty)
        #expect(finger.stderrLines == ["qix: error: invalid gestures (\(dir)/far.gestures.json: [0].points[0][2]): y must be within one screen height of the screen"])
    }
}

/// `qix cards --render`: what the film strip and the player show of a drag.
@Suite("qix cards pictures")
struct CardsRenderTests {
    @Test("a slow drag's film strip draws clipped panels with labels, ropes, snaps and the finger, the same bytes every run")
    func dragStrip() throws {
        let out = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let args = ["cards", "\(CardsCommandTests.dir)/two-pages.deck.json", "--gestures", "\(CardsCommandTests.dir)/slow-drag.gestures.json"]
        #expect(try QixProcess.run(args + ["--render", "\(out)/1.svg"]).status == 0)
        #expect(try QixProcess.run(args + ["--render", "\(out)/2.svg"]).status == 0)
        let svg = try String(contentsOfFile: "\(out)/1.svg", encoding: .utf8)
        #expect(try String(contentsOfFile: "\(out)/2.svg", encoding: .utf8) == svg)
        let document = try XMLDocument(xmlString: svg)
        func count(_ xpath: String) throws -> Int { try document.nodes(forXPath: xpath).count }
        // 8 panels over 225 frames: frames 129, 161 and 193 (2.15, 2.68 and 3.22 s) fall inside
        // the drag (2-3.3 s).
        #expect(try count("//*[local-name()='clipPath']") == 8)
        #expect(try count("//*[local-name()='g'][@clip-path]") == 8)
        #expect(try count("//*[local-name()='g'][@class='panel']//*[local-name()='circle'][@class='finger']") == 3)
        #expect(try count("//*[local-name()='g'][@class='panel']//*[local-name()='line'][@class='rope']") == 8)
        #expect(try count("//*[local-name()='text'][@class='label']") == 16)
        #expect(try count("//*[local-name()='g'][@class='panel']//*[local-name()='path'][@class='snap-point']") >= 2)
        #expect(try count("//*[local-name()='text'][@class='caption']") == 8)
    }

    @Test("the drag's player carries the finger in the frames where it is down")
    func dragPlayer() throws {
        let out = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try QixProcess.run(["cards", "\(CardsCommandTests.dir)/two-pages.deck.json", "--gestures",
                                         "\(CardsCommandTests.dir)/slow-drag.gestures.json", "--render", "\(out)/run.html"])
        #expect(result.status == 0)
        let html = try String(contentsOfFile: "\(out)/run.html", encoding: .utf8)
        _ = try XMLDocument(xmlString: html)
        let start = try #require(html.range(of: "id=\"qix-data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = try #require(JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
        let times = try #require(data["times"] as? [Double])
        let fingers = try #require(data["finger"] as? [Any])
        #expect(fingers.count == times.count)
        // Down from 2.0 s to 3.3 s (the drag begins at the first frame at or after 2.0 s).
        let down = zip(times, fingers).filter { $0.1 is [Double] }.map(\.0)
        #expect((down.first ?? 0) >= 2.0 && (down.first ?? 0) < 2.1 && (down.last ?? 0) <= 3.35 && (down.last ?? 0) > 3.2)
        // The rope between a and b in every frame; the drag's anchor is the finger while it is down.
        let sets = try #require(data["linkSets"] as? [[[Any]]])
        let links = try #require(data["links"] as? [Int])
        #expect(links.count == times.count)
        #expect(links.allSatisfy { sets[$0].contains { $0.first as? String == "rope" } })
        #expect(zip(links, fingers).allSatisfy { set, finger in sets[set].contains { $0[1] as? String == "f" } == (finger is [Double]) })
    }
}
