/// The animator's record of a group in the world. A body holds one convex shape and the
/// narrow phase (Collision/) knows no compound bodies, so each item of the group keeps its own
/// body; weld joints tie them to the first item's body within the solve, and after every
/// 1/120 s step `DynamicAnimator.rigidifyGroups()` sets them to one rigid motion.
struct GroupBody {
    /// The group.
    let group: DynamicItemGroup
    /// The bodies of its items, in item order.
    var bodies: [Int]
    /// Where its welds start in the world's joint list (-1: none yet), for warm starting.
    var weldStart = -1
    /// Whether its bodies must be placed from the group's own state before the next step.
    var needsPlacement = true
}

/// A group's motion summed over its bodies: mass, centre of mass, momentum and inertia.
struct GroupMotion {
    /// Total mass (0 when no body moves).
    var mass = 0.0
    /// Centre of mass (reference coordinates).
    var center = Vector2.zero
    /// Velocity of the centre of mass.
    var velocity = Vector2.zero
    /// Angular velocity (angular momentum over inertia about the centre of mass).
    var angularVelocity = 0.0
    /// Moment of inertia about the centre of mass.
    var inertia = 0.0
    /// Angular momentum about the centre of mass.
    var spin = 0.0
    /// Sum of the items' charges.
    var charge = 0.0
    /// False when an item may not turn (the group does not either).
    var turns = true
}
