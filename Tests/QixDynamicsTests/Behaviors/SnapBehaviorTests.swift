import Testing
@testable import QixDynamics

@Suite struct SnapBehaviorTests {
    @Test func snapReachesItsPointAndAngleZero() {
        let a = Harness.box(at: Vector2(0, -400), size: Vector2(120, 80), angle: 0.6)
        let animator = DynamicAnimator()
        animator.addBehavior(SnapBehavior(item: a, snapTo: Vector2(195, 300)))
        Harness.run(animator, frames: 180)
        // Within 1 point and 0.01 rad after 3 s.
        #expect((a.center - Vector2(195, 300)).length < 1)
        #expect(abs(a.angle) < 0.01)
    }

    @Test func movingTheSnapPointWakesAndMoves() {
        let a = Harness.box(at: Vector2(0, 0))
        let animator = DynamicAnimator()
        let snap = SnapBehavior(item: a, snapTo: .zero)
        animator.addBehavior(snap)
        let events = Harness.run(animator, frames: 120)
        #expect(events.contains(.paused))
        snap.snapPoint = Vector2(100, 0)
        let later = Harness.run(animator, frames: 180)
        #expect(later.first == .resumed)
        #expect(abs(a.center.x - 100) < 1)
    }
}
