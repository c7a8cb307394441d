import Testing
import QixDynamics

/// The README's library example, kept compiling and true.
struct ReadmeExampleTests {
    @Test func cardFallsOntoTheBottomOfItsBounds() throws {
        // README: "Using the libraries", QixDynamics.
        let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 390, height: 844))
        let card = try DynamicItem(identifier: "card", center: Vector2(195, 100), size: Vector2(300, 200))
        let collision = CollisionBehavior(items: [card])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(GravityBehavior(items: [card]))
        animator.addBehavior(collision)
        var paused = false
        for _ in 0..<(60 * 5) {
            for event in animator.advance(by: 1.0 / 60) where event == .paused { paused = true }
        }
        // The card rests on the bottom edge: its centre half its height above it.
        #expect(abs(card.center.y - (844 - 100)) < 1)
        #expect(paused)
    }
}
