import Testing
import QixDynamics

/// The README's library example, kept compiling and true.
struct ReadmeExampleTests {
    /// The README example's run: the card and whether the animator paused.
    static func dropCard() throws -> (card: DynamicItem, paused: Bool) {
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
        return (card, paused)
    }

    @Test func cardFallsFlatOntoTheBottomOfItsBounds() throws {
        let (card, paused) = try Self.dropCard()
        // Dropped flat, it lands flat where it fell: no sideways drift, no tilt (the sequential
        // two-point solve landed it at x = 205.17 after a 0.046 rad tilt). It rests on the bottom
        // edge, its centre half its height above it (the soft contact overlaps 0.0003 point).
        #expect(abs(card.center.x - 195) < 0.01)
        #expect(abs(card.center.y - (844 - 100)) < 0.01)
        #expect(abs(card.angle) < 1e-4)
        #expect(paused)
    }

    @Test func readmePrintsWhatTheExamplePrints() throws {
        let (card, _) = try Self.dropCard()
        let printed = "\(card.center) \(card.angle)"
        let root = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let readme = String(decoding: try FileBytes.read("/" + root + "/README.md"), as: UTF8.self)
        let line = readme.split(separator: "\n").first { $0.hasPrefix("print(card.center, card.angle)") }
        #expect(line?.contains("// \(printed):") == true, "README should say what the example prints: \(printed)")
    }
}
