import Testing
@testable import QixDynamics

/// `items(in:)` as UIKit's: the simulated items whose frames meet a rectangle.
@Suite struct ItemsInRectTests {
    @Test func itemsMeetingTheRectangleByTheirTurnedFrames() {
        let a = Harness.box("a", at: Vector2(50, 50))                       // frame 0...100
        let b = Harness.box("b", at: Vector2(300, 50), angle: Double.pi / 4)  // frame 229.3...370.7
        let c = Harness.box("c", at: Vector2(50, 300), shape: .ellipse)       // circle of radius 50
        let idle = Harness.box("idle", at: Vector2(60, 60))                   // in no behavior
        let animator = DynamicAnimator()
        animator.addBehavior(CollisionBehavior(items: [a, b, c]))
        Harness.run(animator, frames: 1)
        func ids(_ r: Rect) -> [String] { animator.items(in: r).map(\.identifier) }
        #expect(ids(Rect(x: 0, y: 0, width: 1000, height: 1000)) == ["a", "b", "c"])
        #expect(ids(Rect(x: 100, y: 0, width: 10, height: 10)) == ["a"])          // touching an edge
        #expect(ids(Rect(x: 225, y: 40, width: 5, height: 5)) == ["b"])           // only the turned corner
        #expect(ids(Rect(x: 101, y: 101, width: 120, height: 140)).isEmpty)
        #expect(ids(Rect(x: 90, y: 240, width: 20, height: 20)) == ["c"])
        #expect(!animator.items(in: Rect(x: 0, y: 0, width: 1000, height: 1000)).contains { $0 === idle })
    }
}
