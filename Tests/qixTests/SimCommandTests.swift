import Foundation
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
}
