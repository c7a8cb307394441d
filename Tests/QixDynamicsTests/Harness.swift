@testable import QixDynamics

/// Small helpers shared by the dynamics tests.
enum Harness {
    /// A 100x100 item (mass 1 at density 1).
    static func box(_ id: String = "a", at center: Vector2, size: Vector2 = Vector2(100, 100), angle: Double = 0,
                    shape: ItemShape = .rectangle) -> DynamicItem {
        // The sizes used in tests are valid, so this cannot throw.
        (try? DynamicItem(identifier: id, center: center, size: size, angle: angle, shape: shape))!
    }

    /// Item properties with no damping (analytic tests).
    static func undamped(_ items: [DynamicItem]) -> DynamicItemBehavior {
        let p = DynamicItemBehavior(items: items)
        p.resistance = 0
        p.angularResistance = 0
        return p
    }

    /// Runs `frames` display frames at `frameRate`, calling `each` after every frame.
    @discardableResult
    static func run(_ animator: DynamicAnimator, frames: Int, frameRate: Double = 60,
                    each: (Int, [AnimatorEvent]) -> Void = { _, _ in }) -> [AnimatorEvent] {
        var all: [AnimatorEvent] = []
        for f in 0..<frames {
            let events = animator.advance(by: 1 / frameRate)
            all += events
            each(f + 1, events)
        }
        return all
    }
}
