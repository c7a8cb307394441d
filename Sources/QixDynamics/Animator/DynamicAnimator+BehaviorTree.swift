/// The behavior tree: added behaviors and their child behaviors, flattened into the list the
/// world is built from, with each behavior joining or leaving the animator as the tree changes.
extension DynamicAnimator {
    /// Re-reads the tree after a behavior or child was added or removed: behaviors that left
    /// are detached (their joints and boundaries dropped), those that came are attached (an
    /// attachment's length is measured now), and the world is rebuilt at the next frame.
    func behaviorTreeDidChange() {
        let old = activeBehaviors
        var now: [DynamicBehavior] = []
        for behavior in behaviors { behavior.appendTree(to: &now) }
        activeBehaviors = now
        let kept = Set(now.map(ObjectIdentifier.init))
        let had = Set(old.map(ObjectIdentifier.init))
        for behavior in old where !kept.contains(ObjectIdentifier(behavior)) { detach(behavior) }
        for behavior in now where !had.contains(ObjectIdentifier(behavior)) { attach(behavior) }
        behaviorsDidChange()
    }

    private func attach(_ behavior: DynamicBehavior) {
        behavior.willMove(to: self)
        behavior.dynamicAnimator = self
        prepareAdded(behavior)
    }

    private func detach(_ behavior: DynamicBehavior) {
        behavior.willMove(to: nil)
        behavior.dynamicAnimator = nil
        if let attachment = behavior as? AttachmentBehavior { attachment.jointIndex = -1 }
        if let snap = behavior as? SnapBehavior { snap.jointStart = -1 }
        if let collision = behavior as? CollisionBehavior {
            for b in collision.boundaryBodies { world.bodies[b].enabled = false }
            collision.boundaryBodies = []
            collision.boundarySegments = []
        }
    }
}
