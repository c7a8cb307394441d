/// Solver tuning in QixDynamics units (points, seconds): Box2D v3's metre-based defaults times
/// 100 points per metre, and UIKit's fixed 120 Hz world step.
public enum PhysicsConstants {
    /// Points per metre: UIKit Dynamics' implied scale.
    public static let pointsPerMeter = 100.0
    /// Gravity magnitude 1.0 in points/s^2.
    public static let gravityUnit = 1000.0
    /// Acceleration of the 100x100, density-1 reference item under push magnitude 1 (points/s^2).
    public static let pushUnit = 100.0
    /// The world's fixed internal step (seconds).
    public static let stepDuration = 1.0 / 120.0
    /// Collision and constraint tolerance (0.005 m).
    public static let linearSlop = 0.5
    /// Contacts are created this far before shapes touch (4 slops), so they stop fast bodies.
    public static let speculativeDistance = 2.0
    /// Stiffness of contacts (Hz) before the sub-step cap (Box2D v3 uses 30 Hz at 240 sub-steps/s;
    /// at 480 sub-steps/s the same stability margin, 1/8 of the sub-step rate, allows 60 Hz).
    public static let contactHertz = 60.0
    /// Damping ratio of contacts (Box2D v3: 10, strongly over-damped, no bounce from overlap).
    public static let contactDampingRatio = 10.0
    /// Damping ratio of the soft position correction of rigid joints.
    public static let jointDampingRatio = 2.0
    /// Fastest overlap recovery (3 m/s).
    public static let contactPushMaxVelocity = 300.0
    /// Approach speeds below this do not bounce (1 m/s).
    public static let restitutionThreshold = 100.0
    /// A two-point contact is solved as a block while det K > this x k11 k22 (Box2D v2's
    /// condition limit of 1000 on the normal mass matrix K); nearer singular, at one point.
    static let blockConditionLimit = 0.001
    /// Speed clamp (400 m/s).
    public static let maxLinearSpeed = 40_000.0
    /// Angular speed clamp, as a rotation per sub-step (Box2D v3's `B2_MAX_ROTATION`): π/4, so
    /// about 377 rad/s with four sub-steps of a 1/120 s step. Keeps cumulative angles in the range
    /// where `DeterministicMath.sinCos` is accurate.
    public static let maxRotation = 0.25 * Double.pi
    /// A body moving farther than this fraction of its inner radius in one step gets continuous collision.
    public static let fastFraction = 0.5
    /// Resting: below this speed (points/s) ...
    public static let restLinearSpeed = 1.0
    /// ... and this angular speed (2 degrees/s) ...
    public static let restAngularSpeed = 2.0 * Double.pi / 180.0
    /// ... for this long (seconds), as Box2D 2.x's sleep test inside UIKit.
    public static let timeToRest = 0.5
}

/// Soft-constraint coefficients for one sub-step (Box2D v3 `b2Softness`).
struct Softness {
    var biasRate: Double
    var massScale: Double
    var impulseScale: Double

    static let rigid = Softness(biasRate: 0, massScale: 1, impulseScale: 0)

    /// Coefficients for a spring of `hertz` and damping ratio `zeta` stepped with `h` (implicit).
    static func make(hertz: Double, zeta: Double, h: Double) -> Softness {
        if hertz == 0 { return Softness(biasRate: 0, massScale: 1, impulseScale: 0) }
        let omega = 2 * Double.pi * hertz
        let a1 = 2 * zeta + h * omega
        let a2 = h * omega * a1
        let a3 = 1 / (1 + a2)
        return Softness(biasRate: omega / a1, massScale: a2 * a3, impulseScale: a3)
    }
}
