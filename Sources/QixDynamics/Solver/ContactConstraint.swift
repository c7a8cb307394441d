/// One point of a contact: anchors relative to the centres of mass, the separation found by
/// the narrow phase, and the impulses accumulated by the solver (kept for warm starting).
struct ContactPoint {
    var anchorA = Vector2.zero
    var anchorB = Vector2.zero
    var separation = 0.0
    var normalImpulse = 0.0
    var tangentImpulse = 0.0
    var id: UInt32 = 0
}

/// A contact between two bodies with up to two points, kept from step to step by pair key so
/// that its impulses warm-start the next step; the solver works on `ContactBatch` copies.
struct ContactConstraint {
    var a: Int
    var b: Int
    var key: UInt64
    var normal = Vector2.zero
    var friction = 0.0
    var restitution = 0.0
    var pointCount = 0
    var p0 = ContactPoint()
    var p1 = ContactPoint()
    var touching = false
}
