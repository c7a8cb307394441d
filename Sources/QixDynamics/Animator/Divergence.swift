/// A simulation that left the numbers it can represent: an item whose position, speed, angle or
/// angular speed became non-finite or passed its bound. The animator reports the first one (an
/// `AnimatorEvent.diverged`) and stops stepping, so no later frame computes on it.
public struct Divergence: Equatable {
    /// The state variable that left its range.
    public enum Quantity: String, Sendable {
        /// The centre (points).
        case position
        /// The linear speed (points/s).
        case velocity
        /// The cumulative angle (radians).
        case angle
        /// The angular speed (radians/s).
        case angularVelocity
    }

    /// Farthest a centre may be from the origin, per coordinate (points, 10 000 km at 100 points/m).
    public static let positionLimit = 1e9
    /// Fastest linear speed per component (points/s); the solver clamps speeds to 40 000, so only a
    /// broken state gets here.
    public static let speedLimit = 1e9
    /// Largest cumulative angle (radians); the solver turns a body at most π/4 per sub-step
    /// (about 377 rad/s), so an hour of spinning stays below 1.4e6.
    public static let angleLimit = 1e9
    /// Fastest angular speed (radians/s).
    public static let angularSpeedLimit = 1e9

    /// The item that diverged.
    public let item: DynamicItem
    /// Simulated time (seconds) at the end of the step that diverged.
    public let time: Double
    /// What diverged.
    public let quantity: Quantity
    /// The offending value (a coordinate or component, possibly infinite or NaN).
    public let value: Double

    /// Equal when they name the same item object, time, quantity and value bits.
    public static func == (a: Divergence, b: Divergence) -> Bool {
        a.item === b.item && a.time == b.time && a.quantity == b.quantity && a.value.bitPattern == b.value.bitPattern
    }

    /// Why, in a user's words: `velocity is not a number`, `position 2000000000.0 points is beyond 1e9`.
    public var reason: String {
        let unit: String
        switch quantity {
        case .position: unit = "points"
        case .velocity: unit = "points/s"
        case .angle: unit = "rad"
        case .angularVelocity: unit = "rad/s"
        }
        if value.isNaN { return "\(quantity.rawValue) is not a number" }
        if !value.isFinite { return "\(quantity.rawValue) is infinite" }
        return "\(quantity.rawValue) \(value) \(unit) is beyond 1e9"  // every limit is 1e9
    }

    /// Whether every quantity of a body state is within its bound (`check` finds none), as one
    /// test of two vectors without a branch per quantity: -limit <= x <= limit is
    /// abs(x) <= limit, and NaN fails both. The step runs it for every item (47 instructions
    /// a body as six checks one after the other, 20 this way); `check` names the quantity.
    @inline(__always)
    static func isInside(center p: Vector2, velocity v: Vector2, angle: Double, angularVelocity w: Double) -> Bool {
        let values = SIMD8(p.x, p.y, v.x, v.y, angle, w, 0, 0)
        let limits = SIMD8(positionLimit, positionLimit, speedLimit, speedLimit, angleLimit, angularSpeedLimit, 1, 1)
        return all((values .<= limits) .& (values .>= -limits))
    }

    /// The first quantity of a body state outside its bound (NaN fails every comparison, so it
    /// is caught by the same tests), with the offending value.
    static func check(center p: Vector2, velocity v: Vector2, angle: Double, angularVelocity w: Double) -> (Quantity, Double)? {
        if !(abs(p.x) <= positionLimit) { return (.position, p.x) }
        if !(abs(p.y) <= positionLimit) { return (.position, p.y) }
        if !(abs(v.x) <= speedLimit) { return (.velocity, v.x) }
        if !(abs(v.y) <= speedLimit) { return (.velocity, v.y) }
        if !(abs(angle) <= angleLimit) { return (.angle, angle) }
        if !(abs(w) <= angularSpeedLimit) { return (.angularVelocity, w) }
        return nil
    }
}
