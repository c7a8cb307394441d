import Testing
import QixDynamics
import QixScenes

/// The 60-body pile of corpus/scenes/pile60.json must give the same bits on every run and in
/// debug and release builds: its hash after 4 s is committed here (see docs/determinism.md).
@Suite struct DeterminismTests {
    static let goldenPileHash = "03604ddc9416bbf0"

    static func sceneBytes(_ name: String) throws -> [UInt8] {
        let root = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        return try FileBytes.read("/" + root + "/corpus/scenes/" + name)
    }

    static func pileHash() throws -> String {
        let scene = try SceneLoader.load(try sceneBytes("pile60.json"))
        let frames = Int(((scene.duration ?? 5) * scene.frameRate).rounded())
        for _ in 0..<frames { _ = scene.advanceFrame() }
        return StateHash.hex(StateHash.of(scene.items))
    }

    @Test func pileHashMatchesTheGoldenValue() throws {
        #expect(try Self.pileHash() == Self.goldenPileHash)
    }

    @Test func twoRunsGiveIdenticalBits() throws {
        #expect(try Self.pileHash() == (try Self.pileHash()))
    }
}
