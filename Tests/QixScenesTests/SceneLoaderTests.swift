import Testing
@testable import QixDynamics
@testable import QixScenes

@Suite struct SceneLoaderTests {
    private func error(_ json: String) -> JSONPathError? {
        do {
            _ = try SceneLoader.load(Array(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    private let item = #"{"id": "a", "center": [0, 0], "size": [10, 10]}"#

    @Test func unknownItemIdNamesItsPath() {
        let e = error(#"{"items": [\#(item)], "behaviors": [{"type": "gravity", "items": ["a"]}, {"type": "gravity", "items": ["a", "zz"]}]}"#)
        #expect(e?.path == "behaviors[1].items[1]")
        #expect(e?.reason.contains("zz") == true)
    }

    @Test func boundaryPathsAreClosedUnlessSaidOpen() throws {
        func boundary(_ extra: String) throws -> CollisionBehavior.Boundary? {
            let scene = try SceneLoader.load(Array(#"{"items": [\#(item)], "behaviors": [{"type": "collision", "items": ["a"], "boundaries": [{"id": "p", "path": [[0, 0], [10, 0], [10, 10]]\#(extra)}]}]}"#.utf8))
            return (scene.animator.behaviors.first as? CollisionBehavior)?.boundary(identifier: "p")
        }
        #expect(try boundary("")?.isClosed == true)
        #expect(try boundary(#", "closed": false"#)?.isClosed == false)
        #expect(error(#"{"items": [\#(item)], "behaviors": [{"type": "collision", "items": ["a"], "boundaries": [{"id": "s", "from": [0, 0], "to": [1, 0], "closed": false}]}]}"#)?.path
            == "behaviors[0].boundaries[0].closed")
    }

    @Test func elasticityOutsideUIKitsRangeIsRefused() {
        for e in ["200000.0", "1.01", "-0.1"] {
            let found = error(#"{"items": [\#(item)], "behaviors": [{"type": "itemProperties", "items": ["a"], "elasticity": \#(e)}]}"#)
            #expect(found?.path == "behaviors[0].elasticity")
            #expect(found?.reason == "must be in 0...1 (0 inelastic, 1 elastic)")
        }
        #expect(error(#"{"items": [\#(item)], "behaviors": [{"type": "itemProperties", "items": ["a"], "elasticity": 1}]}"#) == nil)
    }

    @Test func contactBeganTraceEventsCarryPointAndNormal() throws {
        let a = try DynamicItem(identifier: "a", center: Vector2(0, 0), size: Vector2(10, 10))
        let began = Contact(item: a, otherItem: nil, isBoundary: true, boundaryIdentifier: "floor",
                            point: Vector2(1.5, 400), normal: Vector2(0, 1))
        #expect(TraceLine.event(.contactBegan(began))
            == #"{"type": "contactBegan", "items": ["a"], "boundary": "floor", "point": [1.5, 400], "normal": [0, 1]}"#)
        let ended = Contact(item: a, otherItem: nil, isBoundary: true, boundaryIdentifier: "floor")
        #expect(TraceLine.event(.contactEnded(ended)) == #"{"type": "contactEnded", "items": ["a"], "boundary": "floor"}"#)
    }

    @Test func unknownFieldNamesItsPath() {
        #expect(error(#"{"items": [\#(item)], "behaviors": [{"type": "snap", "item": "a", "point": [1, 2], "dampin": 1}]}"#)?.path
            == "behaviors[0].dampin")
        #expect(error(#"{"items": [\#(item)], "extra": 1}"#)?.path == "extra")
    }

    @Test func wrongTypesAndNonFiniteNumbers() {
        #expect(error(#"{"items": [{"id": "a", "center": [0, "x"], "size": [10, 10]}]}"#)?.path == "items[0].center[1]")
        #expect(error(#"{"items": [{"id": "a", "center": [0, 1e999], "size": [10, 10]}]}"#)?.path == "items[0].center[1]")
        #expect(error(#"{"items": [{"id": "a", "center": [0, 0], "size": [-1, 10]}]}"#)?.path == "items[0].size")
        #expect(error(#"{"items": [\#(item)], "frameRate": "60"}"#)?.path == "frameRate")
        #expect(error(#"{"items": [\#(item)], "behaviors": [{"type": "collision", "items": ["a"], "referenceBoundsAsBoundary": 1}]}"#)?.path
            == "behaviors[0].referenceBoundsAsBoundary")
    }

    /// Finite but huge numbers overflowed to NaN mid-run, and a huge duration to a frame count
    /// that traps: refused at their path instead.
    @Test func hugeNumbersAndDurations() {
        #expect(error(#"{"items": [{"id": "a", "center": [0, 1e308], "size": [10, 10]}]}"#)?.path == "items[0].center[1]")
        #expect(error(#"{"items": [{"id": "a", "center": [0, 0], "size": [1e300, 10]}]}"#)?.path == "items[0].size[0]")
        #expect(error(#"{"items": [\#(item)], "behaviors": [{"type": "push", "items": ["a"], "magnitude": 1e308}]}"#)?.path
            == "behaviors[0].magnitude")
        #expect(error(#"{"items": [\#(item)], "duration": 1e300}"#)?.path == "duration")
        #expect(error(#"{"items": [\#(item)], "duration": 3601}"#)?.path == "duration")
        #expect(error(#"{"items": [\#(item)], "duration": 3600, "behaviors": [{"type": "push", "items": ["a"], "magnitude": 1e9}]}"#) == nil)
    }

    @Test func badShapesAndSyntax() {
        let concave = #"{"items": [{"id": "a", "center": [0, 0], "size": [10, 10], "shape": {"path": [[0,0],[10,0],[2,2],[0,10]]}}]}"#
        #expect(error(concave)?.path == "items[0].shape")
        #expect(error(#"{"items": [\#(item)"#)?.reason.hasPrefix("invalid JSON at line 1") == true)
        #expect(error(#"{"items": [{"id": "a", "center": [0, NaN], "size": [10, 10]}]}"#)?.path == "items[0].center[1]")
        #expect(error(#"{"items": [\#(item), \#(item)]}"#)?.path == "items[1].id")
    }

    @Test func timelineErrors() {
        #expect(error(#"{"items": [\#(item)], "timeline": [{"time": 1, "action": "removeBehavior", "behavior": "nope"}]}"#)?.path
            == "timeline[0].behavior")
        #expect(error(#"{"items": [\#(item)], "timeline": [{"time": 1, "action": "explode"}]}"#)?.path == "timeline[0].action")
    }

    @Test func contractExampleLoadsAndRuns() throws {
        let scene = try SceneLoader.load(Array(Fixtures.contractExample.utf8))
        var sawRemove = false
        for _ in 0..<60 {
            _ = scene.advanceFrame()
            if scene.frame == 31 { sawRemove = !scene.animator.behaviors.contains { $0 is GravityBehavior } }
        }
        #expect(sawRemove)
        #expect(scene.items.map(\.identifier) == ["a", "b"])
    }

    @Test func timelineRunsAtTheFirstFrameAtOrAfterItsTime() throws {
        let json = #"{"frameRate": 10, "items": [\#(item)], "behaviors": [{"type": "itemProperties", "items": ["a"], "resistance": 0}], "timeline": [{"time": 0.25, "action": "addLinearVelocity", "item": "a", "velocity": [10, 0]}]}"#
        let scene = try SceneLoader.load(Array(json.utf8))
        var velocities: [Double] = []
        for _ in 0..<5 {
            _ = scene.advanceFrame()
            velocities.append(scene.items[0].velocity.x)
        }
        // Frame times 0.1 ... 0.5: the action runs once frame 3 (t = 0.3) has been shown, so frame 4 moves.
        #expect(velocities == [0, 0, 0, 10, 10])
    }
}

/// Scene texts used by several tests.
enum Fixtures {
    static let contractExample = #"""
    {"referenceBounds": [0, 0, 390, 844], "frameRate": 60,
     "items": [{"id": "a", "center": [195, 300], "size": [300, 200], "angle": 0, "shape": "rectangle"},
               {"id": "b", "center": [195, 520], "size": [120, 120], "shape": "ellipse"}],
     "behaviors": [
       {"id": "g", "type": "gravity", "items": ["a", "b"], "magnitude": 1.0, "angle": 1.5707963},
       {"type": "collision", "items": ["a", "b"], "mode": "everything", "referenceBoundsAsBoundary": true,
        "boundaries": [{"id": "floor", "from": [0, 800], "to": [390, 800]}]},
       {"id": "drag", "type": "attachment", "item": "a", "anchor": [195, 300], "offset": [0, 0]},
       {"type": "attachment", "items": ["a", "b"], "offsets": [[0, 0], [0, 0]], "length": 120, "frequency": 2, "damping": 0.3},
       {"type": "snap", "item": "b", "point": [195, 500], "damping": 0.5},
       {"type": "push", "items": ["a"], "mode": "instantaneous", "magnitude": 1, "angle": 0},
       {"type": "itemProperties", "items": ["a"], "elasticity": 0.2, "friction": 0.2, "density": 1, "resistance": 0.1,
        "angularResistance": 0.1, "allowsRotation": true, "anchored": false},
       {"type": "field", "kind": "radialGravity", "items": ["a"], "position": [195, 400], "strength": 1, "falloff": 0, "minimumRadius": 0}],
     "timeline": [{"time": 0.5, "action": "removeBehavior", "behavior": "g"},
                  {"time": 0.5, "action": "addLinearVelocity", "item": "a", "velocity": [300, 0]},
                  {"time": 0.6, "action": "setAnchor", "behavior": "drag", "anchor": [100, 200]}]}
    """#
}
