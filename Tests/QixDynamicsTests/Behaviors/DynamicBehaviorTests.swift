import Testing
@testable import QixDynamics

/// Child behaviors (UIKit's `addChildBehavior`): a parent in an animator brings its children's
/// effects and actions, and takes them away when it leaves.
@Suite struct DynamicBehaviorTests {
    /// The state of an undamped item under gravity after `frames`, with the behaviors added
    /// directly or as children of one plain behavior.
    private func fall(asChildren: Bool, frames: Int = 60) -> DynamicItem {
        let a = Harness.box(at: .zero)
        let animator = DynamicAnimator()
        let behaviors: [DynamicBehavior] = [GravityBehavior(items: [a]), Harness.undamped([a])]
        if asChildren {
            let parent = DynamicBehavior()
            for b in behaviors { parent.addChildBehavior(b) }
            animator.addBehavior(parent)
        } else {
            for b in behaviors { animator.addBehavior(b) }
        }
        Harness.run(animator, frames: frames)
        return a
    }

    @Test func childrenActAsIfAddedDirectly() {
        let direct = fall(asChildren: false), nested = fall(asChildren: true)
        #expect(direct.center.y.bitPattern == nested.center.y.bitPattern)
        #expect(direct.velocity.y.bitPattern == nested.velocity.y.bitPattern)
        #expect(abs(nested.velocity.y - 1000) < 1e-6)
    }

    @Test func childrenLeaveWithTheirParent() {
        let a = Harness.box(at: .zero)
        let animator = DynamicAnimator()
        let parent = DynamicBehavior()
        let gravity = GravityBehavior(items: [a])
        parent.addChildBehavior(gravity)
        parent.addChildBehavior(Harness.undamped([a]))
        animator.addBehavior(parent)
        #expect(gravity.dynamicAnimator === animator)
        #expect(animator.behaviors.count == 1)
        Harness.run(animator, frames: 30)
        animator.removeBehavior(parent)
        #expect(gravity.dynamicAnimator == nil)
        let speed = a.velocity.y
        #expect(speed > 400)
        Harness.run(animator, frames: 30)
        // No behavior left: the item is no longer simulated and keeps its last state.
        #expect(a.velocity.y == speed && animator.items.isEmpty)
    }

    @Test func childrenAddedOrRemovedLaterTakeEffect() {
        let a = Harness.box(at: .zero)
        let animator = DynamicAnimator()
        let parent = DynamicBehavior()
        parent.addChildBehavior(Harness.undamped([a]))
        animator.addBehavior(parent)
        let gravity = GravityBehavior(items: [a])
        parent.addChildBehavior(gravity)
        Harness.run(animator, frames: 60)
        #expect(abs(a.velocity.y - 1000) < 1e-6)
        parent.removeChildBehavior(gravity)
        #expect(gravity.dynamicAnimator == nil && parent.childBehaviors.count == 1)
        Harness.run(animator, frames: 30)
        #expect(abs(a.velocity.y - 1000) < 1e-6)
    }

    @Test func actionsRunParentFirstThenChildrenDepthFirst() {
        let animator = DynamicAnimator()
        var order: [String] = []
        let parent = DynamicBehavior(), child = DynamicBehavior(), grandchild = DynamicBehavior(), sibling = DynamicBehavior()
        parent.action = { order.append("parent") }
        child.action = { order.append("child") }
        grandchild.action = { order.append("grandchild") }
        sibling.action = { order.append("sibling") }
        child.addChildBehavior(grandchild)
        parent.addChildBehavior(child)
        parent.addChildBehavior(sibling)
        animator.addBehavior(parent)
        _ = animator.advance(by: 1.0 / 60)
        #expect(order == ["parent", "child", "grandchild", "sibling"])
        #expect(grandchild.dynamicAnimator === animator)
    }

    @Test func aChildLeavesItsFormerPlaceAndCyclesAreRefused() {
        let animator = DynamicAnimator()
        let parent = DynamicBehavior(), other = DynamicBehavior(), child = DynamicBehavior()
        animator.addBehavior(child)
        parent.addChildBehavior(child)
        #expect(animator.behaviors.isEmpty && child.dynamicAnimator == nil)
        other.addChildBehavior(child)
        #expect(parent.childBehaviors.isEmpty && other.childBehaviors.count == 1)
        child.addChildBehavior(other)
        child.addChildBehavior(child)
        #expect(child.childBehaviors.isEmpty)
        animator.addBehavior(child)
        #expect(other.childBehaviors.isEmpty && animator.behaviors.count == 1)
    }

    /// A subclass composes its own children and hears when it joins and leaves (UIKit's
    /// `willMove(to:)`).
    @Test func aSubclassHearsWillMove() {
        final class Composite: DynamicBehavior {
            var moves: [Bool] = []
            override func willMove(to dynamicAnimator: DynamicAnimator?) { moves.append(dynamicAnimator != nil) }
        }
        let animator = DynamicAnimator()
        let composite = Composite()
        animator.addBehavior(composite)
        animator.removeBehavior(composite)
        #expect(composite.moves == [true, false])
    }

    /// An attachment added as a child measures its rest length when its parent is added.
    @Test func aChildAttachmentTakesItsLengthWhenItJoins() {
        let a = Harness.box(at: Vector2(0, 100))
        let rod = AttachmentBehavior(kind: .distance, items: [a], offsets: [.zero], anchor: .zero)
        let parent = DynamicBehavior()
        parent.addChildBehavior(rod)
        parent.addChildBehavior(GravityBehavior(items: [a]))
        #expect(rod.length == nil)
        let animator = DynamicAnimator()
        animator.addBehavior(parent)
        #expect(rod.length == 100)
        a.velocity = Vector2(300, 0)
        animator.updateItem(usingCurrentState: a)
        Harness.run(animator, frames: 60)
        #expect(abs(a.center.length - 100) < 1)
    }
}
