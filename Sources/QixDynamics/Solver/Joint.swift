/// A constraint between two bodies (body 0 is the static ground that carries anchor points):
/// the solver form of attachments and snaps.
struct Joint {
    enum Kind {
        /// Distance rod, spring or rope (Box2D distance joint).
        case distance
        /// Pin: shared point, free rotation with optional angle range and friction torque.
        case revolute
        /// Sliding: translation along an axis fixed in body A, no relative rotation.
        case prismatic
        /// Fixed: shared point and relative angle.
        case weld
    }

    var kind: Kind
    var a: Int
    var b: Int
    /// Anchors relative to each body's origin, in the body's frame.
    var localAnchorA: Vector2
    var localAnchorB: Vector2
    // Distance joint.
    var length = 0.0
    var minLength = 0.0
    var maxLength = Double.infinity
    var hertz = 0.0
    var dampingRatio = 0.0
    var enableSpring = false
    var enableLimit = false
    // Pin / sliding / fixed.
    var referenceAngle = 0.0
    var lower = -Double.infinity
    var upper = Double.infinity
    var maxMotorTorque = 0.0
    var localAxisA = Vector2(1, 0)

    // Solver scratch, set in prepare.
    var rA = Vector2.zero
    var rB = Vector2.zero
    var deltaCenter = Vector2.zero
    var axis = Vector2.zero
    var axialMass = 0.0
    var springSoftness = Softness.rigid
    // Accumulated impulses (warm starting).
    var impulse = 0.0
    var lowerImpulse = 0.0
    var upperImpulse = 0.0
    var linearImpulse = Vector2.zero
    var angularImpulse = 0.0
    var motorImpulse = 0.0
    var perpendicularImpulse = 0.0

    init(kind: Kind, a: Int, b: Int, localAnchorA: Vector2, localAnchorB: Vector2) {
        self.kind = kind
        self.a = a
        self.b = b
        self.localAnchorA = localAnchorA
        self.localAnchorB = localAnchorB
    }

    /// Copies the accumulated impulses of `old` (same behavior, rebuilt joint list).
    mutating func takeImpulses(from old: Joint) {
        impulse = old.impulse
        lowerImpulse = old.lowerImpulse
        upperImpulse = old.upperImpulse
        linearImpulse = old.linearImpulse
        angularImpulse = old.angularImpulse
        motorImpulse = old.motorImpulse
        perpendicularImpulse = old.perpendicularImpulse
    }
}
