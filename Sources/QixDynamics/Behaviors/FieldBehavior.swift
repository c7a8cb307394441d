/// A force field acting on its items inside a region (UIKit's `UIFieldBehavior`).
/// See docs/dynamics.md for each kind's force law and units.
public final class FieldBehavior: DynamicBehavior {
    /// The field laws UIKit offers.
    public enum Kind: String, Sendable, CaseIterable {
        /// Uniform acceleration along `direction`.
        case linearGravity
        /// Acceleration toward `position` (negative strength repels).
        case radialGravity
        /// Force against the velocity.
        case drag
        /// Tangential force around `position`.
        case vortex
        /// Sets the velocity of items inside the region.
        case velocity
        /// Smooth random force.
        case noise
        /// Smooth random force scaled by speed.
        case turbulence
        /// Hooke's law toward `position`.
        case spring
        /// Force on charged items along the radius.
        case electric
        /// Force on moving charged items across their velocity.
        case magnetic
        /// The force an evaluation block returns (UIKit's `field(evaluationBlock:)`); only
        /// through `init(items:evaluation:)`, as a scene file cannot carry a block.
        case custom
    }

    /// A custom field's law (UIKit's `UIFieldCustomEvaluator`): the force, in push units
    /// (UIKit newtons: 1 accelerates mass 1 at 100 points/s²), on a body at `position` (points,
    /// reference coordinates) moving at `velocity` (points/s), with `mass` and `charge`, over a
    /// world step of `deltaTime` seconds. Called once per item per 1/120 s step, in item order.
    public typealias Evaluation = (_ field: FieldBehavior, _ position: Vector2, _ velocity: Vector2, _ mass: Double,
                                   _ charge: Double, _ deltaTime: Double) -> Vector2

    /// The law.
    public let kind: Kind
    /// The block of a `.custom` field; nil for the other kinds.
    public let evaluation: Evaluation?
    /// Items affected.
    public private(set) var items: [DynamicItem]
    /// Origin of the field (points).
    public var position = Vector2.zero { didSet { didChange() } }
    /// Where it acts.
    public var region = FieldRegion.infinite { didSet { didChange() } }
    /// Scale of the force (default 1).
    public var strength = 1.0 { didSet { didChange() } }
    /// Exponent of distance (in metres) beyond minimumRadius; 0 = uniform.
    public var falloff = 0.0 { didSet { didChange() } }
    /// Distances below this (points) count as this for the falloff.
    public var minimumRadius = 1e-3 { didSet { didChange() } }
    /// Direction for linearGravity and velocity fields.
    public var direction = Vector2.zero { didSet { didChange() } }
    /// Noise and turbulence: 0 noisy ... 1 smooth.
    public var smoothness = 0.0 { didSet { didChange() } }
    /// Noise and turbulence: how fast the pattern changes (Hz).
    public var animationSpeed = 1.0 { didSet { didChange() } }

    /// A field of `kind` on `items`.
    public init(kind: Kind, items: [DynamicItem]) {
        self.kind = kind
        self.items = items
        self.evaluation = nil
    }

    /// A custom field on `items` whose force `evaluation` computes (UIKit's
    /// `field(evaluationBlock:)`); `region` and `position` apply, `strength` and `falloff` do not
    /// (the block has the field and may read them itself).
    public init(items: [DynamicItem], evaluation: @escaping Evaluation) {
        self.kind = .custom
        self.items = items
        self.evaluation = evaluation
    }

    override var involvedItems: [DynamicItem] { items }

    /// Adds an item (UIKit's `addItem(_:)`).
    public func addItem(_ item: DynamicItem) { items.append(item); didChange() }
    /// Removes an item (UIKit's `removeItem(_:)`).
    public func removeItem(_ item: DynamicItem) { items.removeAll { $0 === item }; didChange() }

    /// The acceleration (points/s^2) on a body at `p` moving at `v`, with `mass` and `charge`,
    /// at `time`; nil for velocity fields (which set the velocity instead).
    func acceleration(at p: Vector2, velocity v: Vector2, mass: Double, charge: Double, time: Double) -> Vector2 {
        let r = p - position
        if !region.contains(r) { return .zero }
        let distance = max(r.length, minimumRadius)
        var scale = strength
        if falloff != 0 {
            scale *= DeterministicMath.pow(distance / PhysicsConstants.pointsPerMeter, -falloff)
        }
        let invMass = mass > 0 ? 1 / mass : 0
        let unit = PhysicsConstants.pushUnit
        switch kind {
        case .linearGravity:
            return (scale * PhysicsConstants.gravityUnit) * direction
        case .radialGravity:
            return r.lengthSquared > 0 ? (-scale * PhysicsConstants.gravityUnit / r.length) * r : .zero
        case .drag:
            return -scale * v
        case .vortex:
            // Counter-clockwise on screen (y down), proportional to the distance.
            return scale * Vector2(r.y, -r.x)
        case .velocity:
            return .zero
        case .noise:
            return (scale * unit) * ValueNoise.vector(at: noisePoint(p), time: time * animationSpeed)
        case .turbulence:
            return (scale * v.length) * ValueNoise.vector(at: noisePoint(p), time: time * animationSpeed)
        case .spring:
            return (-scale * invMass) * r
        case .electric:
            return r.lengthSquared > 0 ? (scale * charge * unit * invMass / r.length) * r : .zero
        case .magnetic:
            return (scale * charge * invMass) * Vector2(v.y, -v.x)
        case .custom:
            guard let evaluation else { return .zero }
            return (unit * invMass) * evaluation(self, p, v, mass, charge, PhysicsConstants.stepDuration)
        }
    }

    /// How fast a magnetic field turns the velocity of a body at `p` (rad/s, positive clockwise
    /// on screen, as the force s · charge · (v.y, −v.x) / mass turns it); 0 outside the region.
    func magneticTurnRate(at p: Vector2, mass: Double, charge: Double) -> Double {
        // The force law with v = (0, -1) is (−rate, 0).
        -acceleration(at: p, velocity: Vector2(0, -1), mass: mass, charge: charge, time: 0).x
    }

    private func noisePoint(_ p: Vector2) -> Vector2 {
        // Smoothness 0 varies every 25 points, 1 every 400 points.
        let wavelength = 25 + 375 * min(max(smoothness, 0), 1)
        return (1 / wavelength) * p
    }
}
