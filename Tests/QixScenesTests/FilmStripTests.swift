import Foundation
import Testing
@testable import QixDynamics
@testable import QixScenes

/// The film strip's structure: clipped panels, labels, joints between the right points,
/// markers, the finger, a legend, and the same bytes on every run.
@Suite struct FilmStripTests {
    /// A rope between two boxes, a spring from `a` to an anchor, a snap on `b`, and `c` far
    /// beyond the viewport, so every kind of mark and the clipping are in the picture.
    static let scene = #"""
        {"referenceBounds": [0, 0, 400, 600], "frameRate": 60,
         "items": [{"id": "a", "center": [120, 200], "size": [80, 40], "angle": 0.3},
                   {"id": "b", "center": [260, 320], "size": [60, 60]},
                   {"id": "c", "center": [900, 300], "size": [50, 50]}],
         "behaviors": [{"type": "gravity", "items": ["a", "b", "c"]},
                       {"type": "attachment", "kind": "limit", "items": ["a", "b"], "offsets": [[10, 5], [0, -10]]},
                       {"type": "attachment", "item": "a", "anchor": [100, 60], "offset": [-20, 0], "frequency": 2, "damping": 0.5},
                       {"type": "snap", "item": "b", "point": [300, 400]}]}
        """#

    /// A strip of three panels of the scene, with a finger in the last.
    static func strip() throws -> (FilmStrip, [[String: Vector2]]) {
        let world = try SceneLoader.load(Array(scene.utf8))
        var strip = FilmStrip(viewport: world.referenceBounds, segments: [(Vector2(0, 580), Vector2(400, 580))])
        var ends: [[String: Vector2]] = []
        for frame in 1...30 {
            _ = world.advanceFrame()
            guard frame % 10 == 0 else { continue }
            let a = world.items[0], b = world.items[1]
            ends.append(["ropeA": a.center + Rotation(angle: a.angle).rotate(Vector2(10, 5)),
                         "ropeB": b.center + Rotation(angle: b.angle).rotate(Vector2(0, -10)),
                         "springItem": a.center + Rotation(angle: a.angle).rotate(Vector2(-20, 0)),
                         "bCenter": b.center])
            strip.capture(frame: frame, time: world.time(ofFrame: frame), items: world.items, behaviors: world.animator.behaviors,
                          finger: frame == 30 ? Vector2(150, 250) : nil)
        }
        return (strip, ends)
    }

    @Test func everyPanelIsClippedToItsOwnFrame() throws {
        let (strip, _) = try Self.strip()
        let tree = try SVGTree(strip.svg())
        let panels = tree.all("g", class: "panel")
        #expect(panels.count == 3)
        let clips = tree.all("clipPath")
        #expect(clips.count == 3)
        for (k, clip) in clips.enumerated() {
            #expect(clip.attributes["id"] == "panel-\(k + 1)")
            let rect = try #require(tree.elements.first { $0.name == "rect" && $0.ancestors.last?.attributes["id"] == "panel-\(k + 1)" })
            // The clip is exactly the panel's frame, the rectangle drawn right before the clipped group.
            let frame = try #require(tree.elements.first {
                $0.name == "rect" && $0.ancestors.last?.attributes["class"] == "panel" && $0.ancestors.last?.attributes["data-frame"] == "\((k + 1) * 10)"
            })
            for key in ["x", "y", "width", "height"] { #expect(rect.attributes[key] == frame.attributes[key]) }
        }
        // Everything drawn from the scene sits inside its panel's clipped group.
        for e in tree.elements where ["polygon", "line", "polyline", "circle"].contains(e.name) || e.attributes["class"] == "label" {
            guard !e.ancestors.contains(where: { $0.attributes["class"] == "legend" }) else { continue }
            let panel = try #require(e.ancestors.first { $0.attributes["class"] == "panel" })
            let k = try #require(panels.firstIndex { $0.attributes["data-frame"] == panel.attributes["data-frame"] })
            #expect(e.ancestors.contains { $0.attributes["clip-path"] == "url(#panel-\(k + 1))" }, "\(e.name) outside its clip")
        }
    }

    @Test func itemsCarryLabelsAndOutlinesOfTheirOwnPointCount() throws {
        let (strip, _) = try Self.strip()
        let tree = try SVGTree(strip.svg())
        #expect(tree.all("text", class: "label").map(\.text) == Array(repeating: ["a", "b", "c"], count: 3).flatMap { $0 })
        #expect(tree.all("polygon", class: "item").map { $0.points.count } == Array(repeating: 4, count: 9))
        // Three items, three distinct colours, each the same in every panel.
        let fills = tree.all("polygon", class: "item").map { $0.attributes["fill"] ?? "" }
        #expect(Set(fills).count == 3)
        #expect(Array(fills[0..<3]) == Array(fills[3..<6]))
        let captions = tree.all("text", class: "caption").map(\.text)
        #expect(captions == ["frame 10, t = 0.167 s", "frame 20, t = 0.333 s", "frame 30, t = 0.5 s"])
    }

    @Test func jointsRunBetweenTheirAttachmentPoints() throws {
        let (strip, ends) = try Self.strip()
        let tree = try SVGTree(strip.svg())
        // The viewport is 400 points wide in 240-pixel panels: 0.6 pixels per point.
        let scale = 0.6
        for (k, end) in ends.enumerated() {
            let x0 = 12 + Double(k) * 252, y0 = 30.0
            func mapped(_ p: Vector2) -> (Double, Double) { (x0 + p.x * scale, y0 + p.y * scale) }
            func lines(_ cls: String) -> [SVGTree.Element] {
                tree.all("line", class: cls).filter { $0.ancestors.contains { $0.attributes["data-frame"] == "\((k + 1) * 10)" } }
            }
            func close(_ line: SVGTree.Element, _ p: Vector2, _ q: Vector2) -> Bool {
                let (ax, ay) = mapped(p), (bx, by) = mapped(q)
                return abs(line.number("x1")! - ax) <= 0.01 && abs(line.number("y1")! - ay) <= 0.01
                    && abs(line.number("x2")! - bx) <= 0.01 && abs(line.number("y2")! - by) <= 0.01
            }
            let rope = try #require(lines("rope").first)
            #expect(close(rope, end["ropeA"]!, end["ropeB"]!))
            let spring = try #require(lines("spring").first)
            #expect(close(spring, Vector2(100, 60), end["springItem"]!))
            let snap = try #require(lines("snap").first)
            #expect(close(snap, Vector2(300, 400), end["bCenter"]!))
        }
        #expect(tree.all("rect", class: "anchor").filter { !$0.ancestors.contains { $0.attributes["class"] == "legend" } }.count == 3)
        #expect(tree.all("path", class: "snap-point").count == 4)  // three panels and the legend
        let fingers = tree.all("circle", class: "finger").filter { !$0.ancestors.contains { $0.attributes["class"] == "legend" } }
        #expect(fingers.count == 1)
        #expect(fingers.first?.number("cx") == 12 + 2 * 252 + 150 * scale)
        #expect(abs((fingers.first?.number("r") ?? 0) - 22 * scale) < 0.01)
    }

    @Test func theLegendNamesWhatThePanelsDraw() throws {
        let (strip, _) = try Self.strip()
        let tree = try SVGTree(strip.svg())
        let words = tree.all("text").filter { $0.ancestors.contains { $0.attributes["class"] == "legend" } }.map(\.text)
        #expect(words == ["spring", "rope", "snap pull", "anchor", "snap point", "finger"])
        var plain = FilmStrip(viewport: nil, segments: [])
        plain.add(frame: 1, time: 0, outlines: [("x", [Vector2(0, 0), Vector2(10, 0), Vector2(10, 10)])])
        #expect(!plain.svg().contains("class=\"legend\""))
        #expect(try SVGTree(plain.svg()).all("text", class: "label").map(\.text) == ["x"])
    }

    @Test func theSameRunDrawsTheSameBytes() throws {
        let first = try Self.strip().0.svg(), second = try Self.strip().0.svg()
        #expect(first == second)
        // No minus zero and nothing not finite among the numbers.
        for bad in ["\"-0\"", "-0,", "\"nan", "nan\"", "inf\"", "nan,"] { #expect(!first.contains(bad), "\(bad)") }
    }

    @Test func idsAreEscaped() throws {
        var strip = FilmStrip(viewport: Rect(x: 0, y: 0, width: 10, height: 10), segments: [])
        strip.add(frame: 1, time: 0, outlines: [("<&\"x\">", [Vector2(1, 1), Vector2(5, 1), Vector2(5, 5)])])
        let tree = try SVGTree(strip.svg())
        #expect(tree.all("text", class: "label").first?.text == "<&\"x\">")
    }
}
