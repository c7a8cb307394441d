/// The base of every behavior (UIKit's `UIDynamicBehavior`): something the animator applies
/// to a set of items. Changing a property of an added behavior wakes the animator. A plain
/// `DynamicBehavior()` (or a subclass) composes others as child behaviors.
open class DynamicBehavior {
    /// The animator this behavior is added to, directly or as a child, if any.
    public internal(set) weak var dynamicAnimator: DynamicAnimator?
    /// Called once per display frame after the world has advanced (UIKit's `action`); children's
    /// actions run too, each after its parent's.
    public var action: (() -> Void)?
    /// The behaviors composed into this one (UIKit's `childBehaviors`), in the order added:
    /// they act while this behavior is in an animator, as if added right after it.
    public private(set) var childBehaviors: [DynamicBehavior] = []
    /// The behavior this one is a child of.
    weak var parentBehavior: DynamicBehavior?

    /// An empty behavior, to hold child behaviors and an action.
    public init() {}

    /// Called before the behavior joins an animator (or leaves it, with nil), also when it comes
    /// or goes as a child (UIKit's `willMove(to:)`); a subclass may override it.
    open func willMove(to dynamicAnimator: DynamicAnimator?) {}

    /// Adds a child behavior (UIKit's `addChildBehavior(_:)`): it leaves its former parent or
    /// animator. Adding itself, an ancestor or a present child is ignored (UIKit raises).
    public func addChildBehavior(_ behavior: DynamicBehavior) {
        var ancestor: DynamicBehavior? = self
        while let a = ancestor {
            if a === behavior { return }
            ancestor = a.parentBehavior
        }
        if behavior.parentBehavior === self { return }
        if let parent = behavior.parentBehavior {
            parent.removeChildBehavior(behavior)
        } else if let animator = behavior.dynamicAnimator {
            animator.removeBehavior(behavior)
        }
        childBehaviors.append(behavior)
        behavior.parentBehavior = self
        dynamicAnimator?.behaviorTreeDidChange()
    }

    /// Removes a child behavior (UIKit's `removeChildBehavior(_:)`); its effects end with it.
    public func removeChildBehavior(_ behavior: DynamicBehavior) {
        guard let k = childBehaviors.firstIndex(where: { $0 === behavior }) else { return }
        childBehaviors.remove(at: k)
        behavior.parentBehavior = nil
        dynamicAnimator?.behaviorTreeDidChange()
    }

    /// Appends this behavior and its descendants, depth first, parents before children.
    func appendTree(to list: inout [DynamicBehavior]) {
        list.append(self)
        for child in childBehaviors { child.appendTree(to: &list) }
    }

    /// The items this behavior acts on, in order.
    var involvedItems: [DynamicItem] { [] }

    /// Tells the animator that the world must be rebuilt from the behaviors and woken.
    func didChange() { dynamicAnimator?.behaviorsDidChange() }
}
