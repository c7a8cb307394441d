/// The base of every behavior (UIKit's `UIDynamicBehavior`): something the animator applies
/// to a set of items. Changing a property of an added behavior wakes the animator.
public class DynamicBehavior {
    /// The animator this behavior is added to, if any.
    public internal(set) weak var dynamicAnimator: DynamicAnimator?
    /// Called once per display frame after the world has advanced (UIKit's `action`).
    public var action: (() -> Void)?

    init() {}

    /// The items this behavior acts on, in order.
    var involvedItems: [DynamicItem] { [] }

    /// Tells the animator that the world must be rebuilt from the behaviors and woken.
    func didChange() { dynamicAnimator?.behaviorsDidChange() }
}
