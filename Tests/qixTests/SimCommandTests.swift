import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `qix sim` as scripts use it: trace lines, the final hash, the film strip and scene errors.
@Suite("qix sim")
struct SimCommandTests {
    static let scene = "\(QixProcess.repository)/corpus/scenes/contract-example.json"

    @Test("--trace writes one JSON line per frame with the contract's fields; --hash is the last stdout line")
    func traceAndHash() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try QixProcess.run(["sim", Self.scene, "--duration", "1", "--trace", "\(dir)/t.jsonl", "--hash",
                                         "--render", "\(dir)/r.svg"])
        #expect(result.status == 0)
        let hashLine = try #require(result.stdoutLines.last)
        #expect(hashLine.hasPrefix("hash: ") && hashLine.count == 22)
        let lines = try String(contentsOfFile: "\(dir)/t.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 60)
        let first = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["frame"] as? Int == 1)
        let items = try #require(first["items"] as? [[String: Any]])
        #expect(items.map { $0["id"] as? String } == ["a", "b"])
        #expect(Set(items[0].keys) == ["id", "center", "angle", "velocity", "angularVelocity"])
        #expect(first["events"] is [Any])
        let svg = try String(contentsOfFile: "\(dir)/r.svg", encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("<polygon"))
        // No partial files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["r.svg", "t.jsonl"])
        // Same scene, same hash.
        let again = try QixProcess.run(["sim", Self.scene, "--duration", "1", "--hash"])
        #expect(again.stdoutLines.last == hashLine)
    }

    @Test("--stats prints one JSON line on stderr: the steps after --stats-after, their CPU time and the peak memory")
    func stats() throws {
        let result = try QixProcess.run(["sim", Self.scene, "--duration", "1", "--stats", "--stats-after", "0.25", "--hash", "-q"])
        #expect(result.status == 0)
        let line = try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("stats: ") })
        let stats = try #require(JSONSerialization.jsonObject(with: Data(line.dropFirst(7).utf8)) as? [String: Any])
        #expect(stats["items"] as? Int == 2)
        #expect(stats["warm_up_seconds"] as? Double == 0.25)
        #expect(stats["seconds"] as? Double == 0.75)
        #expect(stats["steps"] as? Int == 90)
        let cpu = try #require(stats["cpu_seconds"] as? Double)
        #expect(cpu >= 0 && cpu < 60)
        #expect(try #require(stats["peak_kb"] as? Int) > 0)
        // The stats change nothing else: the same hash as without them.
        let plain = try QixProcess.run(["sim", Self.scene, "--duration", "1", "--hash", "-q"])
        #expect(result.stdoutLines.last == plain.stdoutLines.last)
        let bad = try QixProcess.run(["sim", Self.scene, "--stats-after", "-1"])
        #expect(bad.status != 0 && bad.stderr.contains("--stats-after"))
    }

    @Test("with the trace on stdout, the hash is its last JSON line, so the stream stays JSON lines")
    func traceOnStdout() throws {
        let result = try QixProcess.run(["sim", Self.scene, "--duration", "0.5", "--trace", "-", "--hash", "-q"])
        #expect(result.status == 0)
        #expect(result.stdoutLines.count == 31)
        for line in result.stdoutLines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "\(line.prefix(60))")
        }
        let last = try #require(JSONSerialization.jsonObject(with: Data((result.stdoutLines.last ?? "").utf8)) as? [String: Any])
        let plain = try QixProcess.run(["sim", Self.scene, "--duration", "0.5", "--hash"])
        #expect(plain.stdoutLines.last == "hash: \(last["hash"] as? String ?? "?")")
        #expect(result.stderr.isEmpty, "-q: no summary line")
        #expect(!plain.stderr.isEmpty)
    }

    @Test("--render draws clipped panels with item labels, the spring between a and b, and the anchored rod")
    func renderJoints() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try QixProcess.run(["sim", Self.scene, "--duration", "1", "--render", "\(dir)/r.svg", "--render-frames", "4"])
        #expect(result.status == 0)
        let svg = try String(contentsOfFile: "\(dir)/r.svg", encoding: .utf8)
        let document = try XMLDocument(xmlString: svg)
        func nodes(_ xpath: String) throws -> [XMLNode] { try document.nodes(forXPath: xpath) }
        #expect(try nodes("//*[local-name()='clipPath']").count == 4)
        #expect(try nodes("//*[local-name()='text'][@class='label']").compactMap(\.stringValue) == ["a", "b", "a", "b", "a", "b", "a", "b"])
        #expect(try nodes("//*[local-name()='g'][@class='panel']//*[local-name()='line'][@class='spring']").count == 4)
        // The "drag" attachment holds a to its anchor: one rod and one anchor mark per panel.
        #expect(try nodes("//*[local-name()='g'][@class='panel']//*[local-name()='line'][@class='rod']").count == 4)
        #expect(try nodes("//*[local-name()='g'][@class='panel']//*[local-name()='rect'][@class='anchor']").count == 4)
        #expect(try nodes("//*[local-name()='g'][@class='legend']//*[local-name()='text']").compactMap(\.stringValue) == ["rod", "spring", "anchor"])
        let again = try QixProcess.run(["sim", Self.scene, "--duration", "1", "--render", "\(dir)/s.svg", "--render-frames", "4"])
        #expect(again.status == 0)
        #expect(try String(contentsOfFile: "\(dir)/s.svg", encoding: .utf8) == svg)
    }

    @Test("--render takes the format from the extension and refuses what it cannot write")
    func renderFormat() throws {
        let result = try QixProcess.run(["sim", Self.scene, "--duration", "0.1", "--render", "strip.png"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--render") && result.stderr.contains(".svg"))
    }

    @Test("an unknown item id is reported with its JSON path and exit 1")
    func badScene() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/bad.json"
        try #"{"items": [{"id": "a", "center": [0, 0], "size": [10, 10]}], "behaviors": [{"type": "gravity", "items": ["a", "zz"]}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let result = try QixProcess.run(["sim", path, "--trace", "\(dir)/t.jsonl"])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["qix: error: invalid scene (\(path): behaviors[0].items[1]): unknown item id \"zz\""])
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/t.jsonl"))
    }

    /// Writes `text` to a new temporary file named `name`; returns its path and directory.
    private func scratch(_ name: String, _ text: String) throws -> (path: String, dir: String) {
        let dir = try QixProcess.temporaryDirectory()
        try text.write(toFile: "\(dir)/\(name)", atomically: true, encoding: .utf8)
        return ("\(dir)/\(name)", dir)
    }

    // The reliability run's scene (a fuzzer mutant of contract-example.json) and its minimal form:
    // elasticity 2e5 made the run diverge until `sinCos` trapped on an angle of 1.4e19.
    static let elasticity2e5 = #"""
        {"referenceBounds": [0, 0, 390, 844], "frameRate": 60, "items": [{"id": "a", "center": [195, 300], "size": [300, 200], "angle": 0, "shape": "rectangle"}, {"id": "b", "center": [195, 520], "size": [120, 120], "shape": "ellipse"}], "behaviors": [{"id": "g", "type": "gravity", "items": ["a", "b"], "magnitude": 1.0, "angle": 1.5707963}, {"type": "collision", "items": ["a", "b"], "mode": "everything", "referenceBoundsAsBoundary": true, "boundaries": [{"id": "floor", "from": [0, 800], "to": [390, 800]}]}, {"type": "attachment", "items": ["a", "b"], "offsets": [[0, 0], [0, 0]], "length": 120, "frequency": 2, "damping": 0.3}, {"type": "snap", "item": "a", "point": [195, 300], "damping": 0.5}, {"type": "push", "items": ["a"], "mode": "instantaneous", "magnitude": 1, "angle": 0}, {"type": "itemProperties", "items": ["a"], "elasticity": 200000.0, "friction": 0.2, "density": 1, "resistance": 0.1, "angularResistance": 0.1, "allowsRotation": true, "anchored": false}, {"type": "field", "kind": "radialGravity", "items": ["b"], "position": [195, 400], "strength": 1, "falloff": 0, "minimumRadius": 0}], "timeline": [{"time": 0.5, "action": "removeBehavior", "behavior": "g"}, {"time": 0.5, "action": "addLinearVelocity", "item": "a", "velocity": [300, 0]}]}
        """#
    static let elasticity2e5Min = #"""
        {"referenceBounds": [0, 0, 390, 844], "frameRate": 60, "duration": 3, "items": [{"id": "a", "center": [195, 300], "size": [300, 200], "angle": 0, "shape": "rectangle"}, {"id": "b", "center": [195, 520], "size": [120, 120], "shape": "ellipse"}], "behaviors": [{"id": "g", "type": "gravity", "items": ["a", "b"], "magnitude": 1.0, "angle": 1.5707963}, {"type": "collision", "items": ["a", "b"], "mode": "everything", "referenceBoundsAsBoundary": true, "boundaries": [{"id": "floor", "from": [0, 800], "to": [390, 800]}]}, {"type": "itemProperties", "items": ["a"], "elasticity": 200000.0, "friction": 0.2, "density": 1, "resistance": 0.1, "angularResistance": 0.1, "allowsRotation": true, "anchored": false}]}
        """#

    @Test("the reliability run's elasticity 2e5 scenes are refused with the field's path, exit 1 and no hash")
    func elasticityFindings() throws {
        for (text, index) in [(Self.elasticity2e5, 5), (Self.elasticity2e5Min, 2)] {
            let (path, dir) = try scratch("scene.json", text)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let result = try QixProcess.run(["sim", path, "--duration", "2", "--hash"])
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines == ["qix: error: invalid scene (\(path): behaviors[\(index)].elasticity): must be in 0...1 (0 inelastic, 1 elastic)"])
        }
    }

    @Test("a run that diverges stops with 'simulation diverged', the item and the time, exit 1 and no hash")
    func divergence() throws {
        // A field of falloff 1000 one point from its centre: an infinite pull.
        let (path, dir) = try scratch("scene.json", #"""
            {"items": [{"id": "a", "center": [0, 0], "size": [10, 10]}, {"id": "b", "center": [50, 1], "size": [10, 10]}],
             "behaviors": [{"type": "field", "kind": "radialGravity", "items": ["b"], "position": [50, 0], "falloff": 1000}]}
            """#)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try QixProcess.run(["sim", path, "--duration", "1", "--hash", "--trace", "\(dir)/t.jsonl"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == ["qix: error: simulation diverged (item b, t = 0.008333 s): position is not a number"])
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/t.jsonl"))
    }

    @Test("--frame-hashes writes one 'frame hash' line per frame, the last one the --hash")
    func frameHashes() throws {
        let dir = try QixProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try QixProcess.run(["sim", Self.scene, "--duration", "0.5", "--hash", "--frame-hashes", "\(dir)/f.txt"])
        #expect(result.status == 0)
        let lines = try String(contentsOfFile: "\(dir)/f.txt", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 30)
        #expect(lines.first?.hasPrefix("1 ") == true)
        let last = try #require(lines.last?.split(separator: " "))
        #expect(last.first == "30" && result.stdoutLines.last == "hash: \(last.last ?? "")")
        #expect(Set(lines.map { $0.split(separator: " ")[1] }).count > 1)
    }
}
