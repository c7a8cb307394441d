import Foundation
import Testing
@testable import QixDynamics
@testable import QixScenes

/// The HTML player: self-contained, with its controls, one polygon of the right point count
/// per item whether shown or hidden, a small file, and the same bytes on every run.
@Suite struct OutlineAnimationTests {
    /// Three frames: `a` and the ellipse `b`, then `b` alone with a finger, then both again.
    static func animation(id: String = "a") throws -> OutlineAnimation {
        let a = try DynamicItem(identifier: id, center: Vector2(100, 100), size: Vector2(80, 40), angle: 0.25)
        let b = try DynamicItem(identifier: "b", center: Vector2(200, 300), size: Vector2(60, 60), shape: .ellipse)
        var animation = OutlineAnimation(viewport: Rect(x: 0, y: 0, width: 390, height: 844))
        animation.capture(frame: 2, time: 1.0 / 30, items: [a, b])
        b.center = Vector2(210, 310)
        animation.capture(frame: 4, time: 2.0 / 30, items: [b], finger: Vector2(205.04, 290))
        a.center = Vector2(120, 100)
        a.angle = -1
        animation.capture(frame: 6, time: 3.0 / 30, items: [a, b])
        return animation
    }

    /// The JSON data the page carries.
    static func data(_ html: String) throws -> [String: Any] {
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"qix-data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return try #require(JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
    }

    @Test func thePageIsWellFormedAndHasItsControls() throws {
        let html = try Self.animation().html(title: "run & <deck>")
        let tree = try SVGTree(html)
        let play = try #require(tree.byID("play"))
        #expect(play.name == "button" && play.text == "Play")
        let scrub = try #require(tree.byID("scrub"))
        #expect(scrub.name == "input" && scrub.attributes["type"] == "range")
        #expect(scrub.attributes["min"] == "0" && scrub.attributes["max"] == "2")
        let time = try #require(tree.byID("time"))
        #expect(time.text == "t = 0.03 s / 0.10 s, frame 2")
        // Self-contained: no script, style or image is fetched from anywhere.
        #expect(!tree.elements.contains { $0.attributes["src"] != nil || $0.attributes["href"] != nil })
        #expect(tree.all("script").count == 2 && tree.all("title").first?.text == "run & <deck>")
        // The player's script switches the button between Play and Pause.
        #expect(OutlineAnimation.player.contains("\"Pause\"") && OutlineAnimation.player.contains("performance.now()"))
    }

    @Test func everyPolygonHasItsItemsPointCount() throws {
        let html = try Self.animation().html(title: "t")
        let tree = try SVGTree(html)
        let data = try Self.data(html)
        let items = try #require(data["items"] as? [[String: Any]])
        #expect(items.map { $0["id"] as? String } == ["a", "b"])
        let groups = tree.all("g", class: "item")
        #expect(groups.map { $0.attributes["id"] } == ["item-0", "item-1"])
        for (k, item) in items.enumerated() {
            let shape = try #require(item["shape"] as? [Double])
            let polygons = tree.all("polygon").filter { $0.ancestors.last?.attributes["id"] == "item-\(k)" }
            #expect(polygons.count == 1)
            #expect(polygons.first?.points.count == shape.count / 2)
        }
        #expect(tree.all("polygon").count == 2)
        let shapes = items.compactMap { ($0["shape"] as? [Double])?.count }
        #expect(shapes == [8, 64])
    }

    @Test func aHiddenItemKeepsItsPolygonAndIsHidden() throws {
        let animation = try Self.animation()
        let tree = try SVGTree(animation.svg(frame: 1))
        let a = try #require(tree.byID("item-0"))
        #expect(a.attributes["visibility"] == "hidden")
        let polygon = try #require(tree.all("polygon").first { $0.ancestors.last?.attributes["id"] == "item-0" })
        #expect(polygon.points.count == 4)
        #expect(polygon.points.allSatisfy { abs($0.0) < 1000 && abs($0.1) < 1000 })
        let finger = try #require(tree.byID("finger"))
        #expect(finger.attributes["visibility"] == "visible" && finger.attributes["cx"] == "205")
        #expect(try SVGTree(animation.svg(frame: 0)).byID("finger")?.attributes["visibility"] == "hidden")
        let data = try Self.data(animation.html(title: "t"))
        // Each track: the index of its first shown frame, then one entry per frame up to its last.
        let tracks = try #require(data["tracks"] as? [[Any]])
        #expect(tracks.map(\.count) == [4, 4])
        #expect(tracks.map { $0[0] as? Int } == [0, 0])
        #expect((tracks[0][2] as? Int) == 0)
        #expect((tracks[0][1] as? [Double]) == [100, 100, 0.25])
        #expect((data["finger"] as? [Any])?.count == 3)
        #expect(data["frames"] as? [Int] == [2, 4, 6])
    }

    @Test func aCardOfALaterPageStoresNothingBeforeOrAfterItsPage() throws {
        let a = try DynamicItem(identifier: "a", center: Vector2(100, 100), size: Vector2(80, 40))
        let c = try DynamicItem(identifier: "c", center: Vector2(200, 100), size: Vector2(80, 40))
        var animation = OutlineAnimation(viewport: Rect(x: 0, y: 0, width: 390, height: 844))
        for (frame, items) in [[a], [a], [c], [c], [a]].enumerated() {
            animation.capture(frame: frame + 1, time: Double(frame + 1) / 30, items: items)
        }
        let data = try Self.data(animation.html(title: "pages"))
        let tracks = try #require(data["tracks"] as? [[Any]])
        #expect(tracks[0].count == 6 && tracks[0][0] as? Int == 0)
        #expect(tracks[1].count == 3 && tracks[1][0] as? Int == 2)
        #expect(try SVGTree(animation.svg(frame: 0)).byID("item-1")?.attributes["visibility"] == "hidden")
    }

    @Test func linksAreStoredOnceAndDrawnBetweenTheirEnds() throws {
        let world = try SceneLoader.load(Array(FilmStripTests.scene.utf8))
        var animation = OutlineAnimation(viewport: Rect(x: 0, y: 0, width: 400, height: 600))
        let finger = Vector2(150, 250)
        var ends: [String: Vector2] = [:]
        for frame in 1...3 {
            _ = world.advanceFrame()
            let a = world.items[0], b = world.items[1]
            // The last frame adds a drag whose anchor is the finger, as CardDeck's drag is.
            let drag = AttachmentBehavior(item: a, offsetFromCenter: Vector2(5, 0), attachedToAnchor: finger)
            drag.frequency = 6
            animation.capture(frame: frame, time: Double(frame) / 60, items: world.items,
                              behaviors: world.animator.behaviors + (frame == 3 ? [drag] : []), finger: frame == 3 ? finger : nil)
            ends = ["ropeA": a.center + Rotation(angle: a.angle).rotate(Vector2(10, 5)), "ropeB": b.center + Rotation(angle: b.angle).rotate(Vector2(0, -10)),
                    "spring": a.center + Rotation(angle: a.angle).rotate(Vector2(-20, 0)), "b": b.center,
                    "drag": a.center + Rotation(angle: a.angle).rotate(Vector2(5, 0))]
        }
        let html = animation.html(title: "links")
        let data = try Self.data(html)
        #expect(data["links"] as? [Int] == [0, 0, 1])
        let sets = try #require(data["linkSets"] as? [[[Any]]])
        #expect(sets.map(\.count) == [3, 4])
        #expect(sets[1].contains { $0.first as? String == "spring" && $0[1] as? String == "f" })
        let tree = try SVGTree(animation.svg(frame: 2))
        func line(_ cls: String) throws -> ((Double, Double), (Double, Double)) {
            let l = try #require(tree.all("line", class: cls).first)
            return ((l.number("x1") ?? .nan, l.number("y1") ?? .nan), (l.number("x2") ?? .nan, l.number("y2") ?? .nan))
        }
        func near(_ p: (Double, Double), _ q: Vector2) -> Bool { abs(p.0 - q.x) < 0.15 && abs(p.1 - q.y) < 0.15 }
        let rope = try line("rope")
        #expect(near(rope.0, ends["ropeA"]!) && near(rope.1, ends["ropeB"]!))
        let springs = tree.all("line", class: "spring")
        #expect(springs.count == 2)
        #expect(springs.contains { near(($0.number("x1")!, $0.number("y1")!), Vector2(100, 60)) && near(($0.number("x2")!, $0.number("y2")!), ends["spring"]!) })
        #expect(springs.contains { near(($0.number("x1")!, $0.number("y1")!), finger) && near(($0.number("x2")!, $0.number("y2")!), ends["drag"]!) })
        let snap = try line("snap")
        #expect(near(snap.0, Vector2(300, 400)) && near(snap.1, ends["b"]!))
        // One anchor (the spring's; the drag's is the finger) and one snap point.
        #expect(tree.all("rect", class: "anchor").count == 1 && tree.all("path", class: "snap-point").count == 1)
        #expect(tree.elements.first { $0.name == "style" }?.text.contains(".rope{") == true)
    }

    @Test func theStageShowsTheItemsWhereTheEngineHasThem() throws {
        let animation = try Self.animation()
        let tree = try SVGTree(animation.svg(frame: 2))
        let a = try DynamicItem(identifier: "a", center: Vector2(120, 100), size: Vector2(80, 40), angle: -1)
        let polygon = try #require(tree.all("polygon").first)
        for (drawn, exact) in zip(polygon.points, a.outline) {
            #expect(abs(drawn.0 - exact.x) < 0.1 && abs(drawn.1 - exact.y) < 0.1)
        }
        #expect(tree.all("text", class: "label").map(\.text) == ["a", "b"])
    }

    @Test func idsCannotBreakTheScriptOrTheMarkup() throws {
        let html = try Self.animation(id: "</script><b>&]]>").html(title: "t")
        let tree = try SVGTree(html)
        #expect(tree.all("text", class: "label").first?.text == "</script><b>&]]>")
        let items = try #require(try Self.data(html)["items"] as? [[String: Any]])
        #expect(items.first?["id"] as? String == "</script><b>&]]>")
    }

    @Test func aLongRunStaysSmallAndRendersTheSameBytes() throws {
        func long() throws -> String {
            let items = try (0..<3).map { try DynamicItem(identifier: "card\($0)", center: Vector2(195, 200 + 200 * Double($0)), size: Vector2(300, 160)) }
            var animation = OutlineAnimation(viewport: Rect(x: 0, y: 0, width: 390, height: 844))
            for f in 0..<1800 {
                for (k, item) in items.enumerated() {
                    item.center = Vector2(195 + 100 * sin(Double(f + k) / 20), 200 + 200 * Double(k) + 0.37 * Double(f))
                    item.angle = 0.3 * cos(Double(f) / 33)
                }
                animation.capture(frame: 2 * f + 2, time: Double(f + 1) / 30, items: items, finger: f % 2 == 0 ? Vector2(100, 100) : nil)
            }
            return animation.html(title: "long")
        }
        let html = try long()
        // One minute at 30 frames/s with three cards: under 32 bytes per card and frame.
        #expect(html.utf8.count < 1800 * 3 * 32)
        #expect(try long() == html)
    }
}
