@testable import QixDynamics

/// Small helpers shared by the dynamics tests.
enum Harness {
    /// A 100x100 item (mass 1 at density 1).
    static func box(_ id: String = "a", at center: Vector2, size: Vector2 = Vector2(100, 100), angle: Double = 0,
                    shape: ItemShape = .rectangle) -> DynamicItem {
        // The sizes used in tests are valid, so this cannot throw.
        (try? DynamicItem(identifier: id, center: center, size: size, angle: angle, shape: shape))!
    }

    /// An animator over `bounds` with gravity on `items` (unless `gravity` is false) and the
    /// bounds as their boundary: the world of the stacking and impact tests.
    static func bounded(_ items: [DynamicItem], bounds: Rect, gravity: Bool = true) -> DynamicAnimator {
        let animator = DynamicAnimator(referenceBounds: bounds)
        if gravity { animator.addBehavior(GravityBehavior(items: items)) }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        return animator
    }

    /// 20 boxes of 40 points stacked touching on the floor of a 400 x 1000 area (the tower of
    /// the physics issue), bottom first, and that area.
    static func tower() -> (boxes: [DynamicItem], bounds: Rect) {
        let boxes = (0..<20).map { k in box("t\(k)", at: Vector2(200, 1000 - 20 - 40 * Double(k)), size: Vector2(40, 40)) }
        return (boxes, Rect(x: 0, y: 0, width: 400, height: 1000))
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
