/// The block solve of a two-point manifold's normal impulses (Box2D v2's block solver, with
/// Box2D v3's soft targets).
///
/// Solving the two points one after the other (Gauss-Seidel, as Box2D v3 does) lets the first
/// point take the whole landing: its impulse turns the body, the second point then pushes less,
/// and friction turns that spin into a slide. A 300 x 200 box dropped flat on the floor drifted
/// 10.2 points sideways and tilted 0.046 rad that way. Solving both together gives both points
/// the same impulse when the contact is symmetric, so a box dropped flat lands flat.
///
/// Each point's soft target `u` is the increment it would take alone (`normalTarget`); with the
/// normal mass matrix K = [k11 k12; k12 k22] both targets are met together when
/// K (j1, j2) = (k11 u1, k22 u2), i.e. j1 = g (u1 - c12 u2), j2 = g (u2 - c21 u1) with
/// c12 = k12/k11, c21 = k12/k22, g = 1/(1 - c12 c21). With no coupling (one point, or an
/// unused lane: c12 = c21 = 0, g = 1) this is the single-point impulse. Totals never pull, so
/// the increments solve the linear complementarity problem by Box2D v2's enumeration: both
/// push; only one pushes and the other lets go of its whole total (valid while the other then
/// separates at least as fast as its target asks); else both let go. (Clamping the "both push"
/// increments at zero instead is wrong near singular K: one point's large negative increment
/// becomes the other's large push, and a pile of boxes blew up.) Every case is computed in every lane and selected, so
/// the lanes stay branch-free and give the same bits in every kernel (ContactPasses.h).
extension ContactSolver {
    /// A batch's coupling of the two normal impulses (`BatchSolve`).
    struct Coupling {
        var c12: Lanes, c21: Lanes, scale: Lanes
    }

    /// The normal increments (j1, j2) of both points from their single-point targets `u1`, `u2`
    /// and the totals accumulated so far.
    @_transparent
    static func blockIncrements(_ u1: Lanes, _ u2: Lanes, _ total1: Lanes, _ total2: Lanes,
                                _ k: Coupling) -> (Lanes, Lanes) {
        let zero = Lanes()
        // Both push.
        let a1 = k.scale * (u1 - k.c12 * u2), a2 = k.scale * (u2 - k.c21 * u1)
        let both = ((total1 + a1) .>= zero) .& ((total2 + a2) .>= zero)
        // Only point 1 pushes; point 2 lets go.
        let b2 = -total2, b1 = u1 - k.c12 * b2
        let only1 = ((total1 + b1) .>= zero) .& ((k.c21 * b1 + b2) .>= u2)
        // Only point 2 pushes; point 1 lets go.
        let c1 = -total1, c2 = u2 - k.c21 * c1
        let only2 = ((total2 + c2) .>= zero) .& ((k.c12 * c2 + c1) .>= u1)
        // Neither pushes (both let go): the case left when the others fail.
        var j1 = c1, j2 = b2
        j2.replace(with: c2, where: only2)
        j1.replace(with: b1, where: only1)
        j2.replace(with: b2, where: only1)
        j1.replace(with: a1, where: both)
        j2.replace(with: a2, where: both)
        return (j1, j2)
    }
}
