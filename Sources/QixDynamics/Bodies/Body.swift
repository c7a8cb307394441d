/// The world's record of one rigid body: an item, the ground, or a boundary segment.
struct Body {
    /// Item centre (the body origin) and cumulative angle.
    var origin: Vector2
    var angle: Double
    var q: Rotation
    /// Centre of mass in the body frame and in the world.
    var localCenter: Vector2
    var center: Vector2
    var mass = 0.0
    var invMass = 0.0
    var inertia = 0.0
    var invInertia = 0.0
    var force = Vector2.zero
    var torque = 0.0
    var isStatic = false
    var isAnchored = false
    var fixedRotation = false
    var enabled = true
    var isBoundary = false
    /// Where this body's shape sits in the world's flat vertex arrays, as 32-bit integers packed
    /// beside the flags (8 bytes less a body: 40 kB on the 5050-box pyramid).
    var shapeStart32: Int32 = 0
    var shapeCount32: Int32 = 0
    /// The body's entry in `World.materials` (restitution, friction, damping, gravity scale,
    /// density, charge).
    var material: Int32 = 0
    /// Where this body's placed shape sits in the world's placed vertex arrays (its own range;
    /// the shape in the body frame, from `shapeStart`, may be shared).
    var placedStart32: Int32 = 0
    var radius = 0.0
    var innerRadius = 0.0
    /// Farthest core vertex (radius left out) from the body origin: with the centre of mass's
    /// offset it bounds how far a turn moves the outline (continuous collision).
    var sweepExtent = 0.0
    /// World bounding box including the speculative margin.
    var lower = Vector2.zero
    var upper = Vector2.zero
    /// Collision group masks (one bit per collision behavior).
    var itemMask: UInt64 = 0
    var boundaryMask: UInt64 = 0
    var boundaryGroup: UInt64 = 0
    /// Centre of mass and angle at the start of the step (continuous collision).
    var center0 = Vector2.zero
    var angle0 = 0.0
    var restTime = 0.0

    var isDynamic: Bool { !isStatic && !isAnchored && enabled }

    /// The first of this body's vertices and normals in the world's flat arrays.
    var shapeStart: Int {
        get { Int(shapeStart32) }
        set { shapeStart32 = Int32(truncatingIfNeeded: newValue) }
    }

    /// The first of this body's placed vertices and normals (`World.placedVertices`).
    var placedStart: Int {
        get { Int(placedStart32) }
        set { placedStart32 = Int32(truncatingIfNeeded: newValue) }
    }

    /// How many vertices (and normals) the shape has: 1 for a circle, 2 for a segment.
    var shapeCount: Int {
        get { Int(shapeCount32) }
        set { shapeCount32 = Int32(truncatingIfNeeded: newValue) }
    }

    var transform: Transform { Transform(p: origin, q: q) }
}

/// The part of a body the solver touches in its inner loops (kept small for the cache).
struct BodyState {
    var v = Vector2.zero
    var w = 0.0
    var dp = Vector2.zero
    var dq = Rotation.identity
    var dAngle = 0.0

    /// Adds `angle` to the step rotation as position integration does (first order, then
    /// normalized), keeping the step's angle and rotation in step.
    @inline(__always)
    mutating func turn(by angle: Double) {
        if angle == 0 { return }
        let c = dq.c - angle * dq.s
        let s = dq.s + angle * dq.c
        let invLength = 1 / (c * c + s * s).squareRoot()
        dq = Rotation(c: c * invLength, s: s * invLength)
        dAngle += angle
    }
}

/// What velocity integration adds to a moving body in every sub-step of one step: the velocity
/// change from forces and gravity, and the body's material, whose damping factors (constant
/// within the step) are computed once per material (32 bytes a body instead of 48).
struct BodyMotion {
    var body: Int32
    var material: Int32
    var dv: Vector2
    var dw: Double
}
