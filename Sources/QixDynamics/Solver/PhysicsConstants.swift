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
    /// Sub-steps per step by default: 5, 600 sub-steps/s, the fewest that hold a 20-box tower of
    /// 40-point boxes within 0.5 point with 160 Hz contacts (0.45, its resting sag; the relax
    /// pass's over-relaxation carries a stack's load up within the first frames, so it dips no
    /// further on the way). At 4 (Box2D v3's count) the tower dips 0.57 point and a base-20
    /// pyramid jitters for 5 s before it pauses; 6 cost 11-15 % more per step
    /// (docs/experiments.md, "Fewer sub-steps for speed" and "Alternating sweeps").
    public static let substepCount = 5
    /// Contacts are at most this fraction of the sub-step rate (Hz per sub-step/s): 180 Hz at 600
    /// sub-steps/s, above `contactHertz`. Box2D v3.0 caps at a quarter (an eighth in later
    /// versions); the cap keeps contacts below where a pyramid jitters if the sub-step count is
    /// lowered.
    public static let contactHertzRateLimit = 0.3
    /// Stiffness of contacts (Hz), capped at `contactHertzRateLimit` × the sub-step rate. A soft
    /// contact is a spring of the contact mass times (2π f)², so a stack sags 2 N g / (2π f)² at
    /// a contact under N boxes: the 20-box tower's top box moves 0.45 point at 160 Hz (0.36 at
    /// 180 Hz, 3.25 at 60 Hz; Box2D v3's 30 Hz sags the same tower, 0.4 m boxes at 10 m/s², 13.5
    /// points). At 5 sub-steps 165 Hz and stiffer keep the base-100 pyramid of 100-point boxes
    /// jittering (boxes at 20 points/s after 8 s) and its top box creeping sideways; at 155-160
    /// Hz it comes to rest.
    public static let contactHertz = 160.0
    /// Damping ratio of contacts (Box2D v3: 10, strongly over-damped, no bounce from overlap):
    /// 60 at 160 Hz and 600 sub-steps/s, a push-out rate ω / (2ζ + hω) of 8.3 /s (with 30 a
    /// base-20 pyramid of 40-point boxes took longer to pause).
    public static let contactDampingRatio = 60.0
    /// The relax pass scales each touching point's normal impulse increment by this
    /// (over-relaxed projected Gauss-Seidel): one sweep per sub-step carries the load of a
    /// stack up further, so a tower built in place dips little more than its resting sag. The
    /// increments are zero at rest, so where things settle is unchanged; 1.5 and more let
    /// towers rock and sway at 4 sub-steps.
    public static let relaxOverRelaxation = 1.25
    /// Stiffness of the soft position correction of rigid joints (Hz), capped at half the
    /// sub-step rate.
    public static let jointHertz = 120.0
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
    /// Rotation clamp per sub-step (Box2D v3's `B2_MAX_ROTATION`): π/4. Keeps cumulative angles
    /// in the range where `DeterministicMath.sinCos` is accurate.
    public static let maxRotation = 0.25 * Double.pi
    /// Angular speed clamp (rad/s): `maxRotation` per sub-step at four sub-steps, about 377 rad/s,
    /// whatever the sub-step count (at six the per-sub-step clamp would allow 565 rad/s, and
    /// more thrown items got through a closed path).
    public static let maxAngularSpeed = maxRotation / (stepDuration / 4)
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
