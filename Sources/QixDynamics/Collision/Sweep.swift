/// One body's motion over a step as continuous collision interpolates it (Box2D v3's `b2Sweep`):
/// the centre of mass moves on a straight line and the angle turns at a steady rate, so a corner
/// hit that sets an item spinning is followed through the turn, not only at the final angle.
struct Sweep {
    /// Centre of mass in the body frame.
    var localCenter: Vector2
    /// Centre of mass at the start and at the end of the step.
    var c0: Vector2
    var c1: Vector2
    /// Cumulative angle at the start and at the end of the step.
    var a0: Double
    var a1: Double
    /// The rotation at the end (kept as is when the body does not turn: the same bits).
    var q1: Rotation

    /// A sweep from its parts.
    init(localCenter: Vector2, c0: Vector2, c1: Vector2, a0: Double, a1: Double, q1: Rotation) {
        self.localCenter = localCenter
        self.c0 = c0
        self.c1 = c1
        self.a0 = a0
        self.a1 = a1
        self.q1 = q1
    }

    /// The sweep of `body` from its start-of-step centre and angle to where it stands now.
    init(_ body: UnsafePointer<Body>) {
        self.init(localCenter: body.pointee.localCenter, c0: body.pointee.center0, c1: body.pointee.center,
                  a0: body.pointee.angle0, a1: body.pointee.angle, q1: body.pointee.q)
    }

    /// Displacement of the centre over the whole sweep (per unit of fraction).
    var move: Vector2 { c1 - c0 }

    /// Turn over the whole sweep (radians per unit of fraction).
    var turn: Double { a1 - a0 }

    /// The angle at fraction `t` of the step.
    func angle(at t: Double) -> Double { a0 + t * (a1 - a0) }

    /// The centre of mass at fraction `t` of the step.
    func center(at t: Double) -> Vector2 { c0 + t * (c1 - c0) }

    /// The rotation at fraction `t` of the step.
    func rotation(at t: Double) -> Rotation { a1 == a0 ? q1 : Rotation(angle: angle(at: t)) }

    /// The body's placement (origin and rotation) at fraction `t` of the step.
    func transform(at t: Double) -> Transform {
        let q = rotation(at: t)
        return Transform(p: center(at: t) - q.rotate(localCenter), q: q)
    }
}
