/// Springs of zero rest length (a card's rest spring, an item pulled to an anchor point) solved
/// as a point spring in both directions: along the anchors' axis alone, as a distance joint, the
/// motion across it is not damped, and near the rest point the axis turns with the body, so a
/// card of the push-together run circled its rest point 0.33 point out at 5 points/s for 5 s
/// (its angular momentum about the point decayed 20 % in 3 s) instead of coming to rest.
extension JointSolver {
    /// Whether the joint is a spring whose rest length is below the linear slop.
    @inline(__always)
    static func isPointSpring(_ j: Joint) -> Bool {
        j.enableSpring && !j.enableLimit && j.hertz > 0 && j.length < PhysicsConstants.linearSlop
    }

    /// One pass of the point spring: the spring's softness on the anchors' separation and
    /// relative velocity, both directions at once (the same in the solve and relax passes, as
    /// the distance joint's spring).
    func solvePointSpring(_ j: inout Joint) {
        let mA = bodies[j.a].invMass, iA = bodies[j.a].invInertia
        let mB = bodies[j.b].invMass, iB = bodies[j.b].invInertia
        var sA = states[j.a], sB = states[j.b]
        solvePointLock(&j, &sA, &sB, mA: mA, iA: iA, mB: mB, iB: iB, softness: j.springSoftness)
        if mA > 0 || iA > 0 { states[j.a] = sA }
        if mB > 0 || iB > 0 { states[j.b] = sB }
    }
}
