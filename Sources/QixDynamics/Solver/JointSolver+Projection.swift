/// Position projection of rigid rods after the velocity solve (Box2D v2's position iterations
/// for its distance joint, and UIKit's): the soft step alone lets a rod stretch 33 % when its
/// item is dragged 141 points a frame (the biased pass corrects a fraction of the error per
/// sub-step and the rigid relax pass only holds the length's rate), so each step ends by moving
/// the rod's bodies along it until its length is back.
extension JointSolver {
    /// Position iterations per step; the sweep stops early once every rod is within
    /// `projectionTolerance`.
    static let projectionIterations = 4
    /// Length error (points) below which a rod is left as it is: a tenth of the linear slop.
    static let projectionTolerance = 0.1 * PhysicsConstants.linearSlop

    /// Whether the joint is a rigid rod (a distance joint without spring or limit).
    @inline(__always)
    static func isRigidRod(_ j: Joint) -> Bool { j.kind == .distance && !j.enableSpring }

    /// Projects every rigid rod of `joints` back to its length, in creation order, for up to
    /// `projectionIterations` sweeps.
    func projectRods(_ joints: UnsafeMutableBufferPointer<Joint>) {
        for _ in 0..<JointSolver.projectionIterations {
            var worst = 0.0
            for k in 0..<joints.count where JointSolver.isRigidRod(joints[k]) {
                worst = max(worst, projectLength(joints[k]))
            }
            if worst <= JointSolver.projectionTolerance { return }
        }
    }

    /// Moves the rod's bodies (their step displacements) along it by the mass-weighted share of
    /// its length error; returns the error before the move.
    func projectLength(_ j: Joint) -> Double {
        let mA = bodies[j.a].invMass, iA = bodies[j.a].invInertia
        let mB = bodies[j.b].invMass, iB = bodies[j.b].invInertia
        var sA = states[j.a], sB = states[j.b]
        let rA = sA.dq.rotate(j.rA), rB = sB.dq.rotate(j.rB)
        let d = (sB.dp - sA.dp) + j.deltaCenter + rB - rA
        let error = d.length - j.length
        if abs(error) <= JointSolver.projectionTolerance { return abs(error) }
        let axis = d.normalized
        let crA = rA.cross(axis), crB = rB.cross(axis)
        let k = mA + mB + iA * crA * crA + iB * crB * crB
        if !(k > 0) { return 0 }
        let P = (-error / k) * axis
        sA.dp -= mA * P
        sB.dp += mB * P
        sA.turn(by: -iA * rA.cross(P))
        sB.turn(by: iB * rB.cross(P))
        if mA > 0 || iA > 0 { states[j.a] = sA }
        if mB > 0 || iB > 0 { states[j.b] = sB }
        return abs(error)
    }
}
