import Testing
import QixDynamics
@testable import QixScenes

@Suite struct FrameSketchTests {
    /// Joints and snaps added as child behaviors are drawn like those added directly.
    @Test func childBehaviorsAreDrawn() throws {
        let a = try DynamicItem(identifier: "a", center: Vector2(0, 100), size: Vector2(50, 50))
        let b = try DynamicItem(identifier: "b", center: Vector2(200, 100), size: Vector2(50, 50))
        let parent = DynamicBehavior()
        let inner = DynamicBehavior()
        parent.addChildBehavior(AttachmentBehavior(kind: .distance, items: [a], offsets: [.zero], anchor: .zero))
        parent.addChildBehavior(inner)
        inner.addChildBehavior(SnapBehavior(item: b, snapTo: Vector2(200, 0)))
        let sketch = FrameSketch(items: [a, b], behaviors: [parent])
        #expect(sketch.links.map(\.style) == [.rod, .snap])
        #expect(sketch.anchors == [.zero] && sketch.snapPoints == [Vector2(200, 0)])
    }
}
