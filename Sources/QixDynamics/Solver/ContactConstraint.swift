/// One point of a contact: where it is in the world, the separation found by the narrow phase,
/// and the impulses accumulated by the solver (kept for warm starting). The anchors relative to
/// the centres of mass are `point - center` of each body, computed where they are read (the
/// centres do not move between the narrow phase and the fill). The point's feature id is kept
/// apart, in `World.contactPointIDs`: only the warm-start match reads it.
struct ContactPoint {
    var point = Vector2.zero
    var separation = 0.0
    var normalImpulse = 0.0
    var tangentImpulse = 0.0
}

/// A contact between two bodies with up to two points, kept from step to step by pair key so
/// that its impulses warm-start the next step; the solver works on `ContactBatch` copies.
/// 112 bytes: the pair key, whether the contact touches, the anchors, and the friction and
/// restitution are derived (from the bodies and the points) rather than stored.
struct ContactConstraint {
    private var bodyA: Int32
    private var bodyB: Int32
    private var points: Int32 = 0
    var normal = Vector2.zero
    var p0 = ContactPoint()
    var p1 = ContactPoint()

    /// A contact between bodies `a` and `b` (below 2^31) with the given points.
    init(a: Int, b: Int, normal: Vector2 = .zero, pointCount: Int = 0, p0: ContactPoint = ContactPoint(),
         p1: ContactPoint = ContactPoint()) {
        bodyA = Int32(truncatingIfNeeded: a)
        bodyB = Int32(truncatingIfNeeded: b)
        points = Int32(truncatingIfNeeded: pointCount)
        self.normal = normal
        self.p0 = p0
        self.p1 = p1
    }

    /// The first body (the one created first, or the item of an item-boundary pair).
    var a: Int { Int(bodyA) }
    /// The second body.
    var b: Int { Int(bodyB) }
    /// How many of `p0`, `p1` are in use (1 or 2).
    var pointCount: Int { Int(points) }
    /// The pair key (`World.pairKey`).
    var key: UInt64 { World.pairKey(a, b) }
    /// Where the body indices and the point count sit in the record (the C fill reads them
    /// in place: `ContactKernel.layoutMatches`).
    static var bodyOffsets: (a: Int?, b: Int?, pointCount: Int?) {
        (MemoryLayout.offset(of: \ContactConstraint.bodyA), MemoryLayout.offset(of: \ContactConstraint.bodyB),
         MemoryLayout.offset(of: \ContactConstraint.points))
    }
    /// Whether the shapes touch: a point's separation below the linear slop.
    var touching: Bool {
        min(p0.separation, pointCount > 1 ? p1.separation : .infinity) < PhysicsConstants.linearSlop
    }
}
