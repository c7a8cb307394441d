/// Gravity (UIKit's `UIGravityBehavior`): a world acceleration for its items; 1.0 = 1000 points/s^2.
/// Several gravity behaviors share one world gravity: the last added wins.
public final class GravityBehavior: DynamicBehavior {
    /// Items that fall.
    public private(set) var items: [DynamicItem]
    /// Acceleration vector in gravity units (default (0, 1): 1000 points/s^2 downward).
    public var gravityDirection = Vector2(0, 1) { didSet { didChange() } }

    /// Gravity on `items`.
    public init(items: [DynamicItem]) {
        self.items = items
    }

    override var involvedItems: [DynamicItem] { items }

    /// Adds an item.
    public func addItem(_ item: DynamicItem) { items.append(item); didChange() }
    /// Removes an item.
    public func removeItem(_ item: DynamicItem) { items.removeAll { $0 === item }; didChange() }

    /// The direction's length.
    public var magnitude: Double {
        get { gravityDirection.length }
        set { setAngle(angle, magnitude: newValue) }
    }

    /// The direction's angle (radians, from +x toward +y); 0 when the magnitude is 0.
    public var angle: Double {
        get { gravityDirection == .zero ? 0 : Self.angleOf(gravityDirection) }
        set { setAngle(newValue, magnitude: magnitude) }
    }

    /// Sets direction from an angle (radians) and a magnitude.
    public func setAngle(_ angle: Double, magnitude: Double) {
        let sc = DeterministicMath.sinCos(angle)
        gravityDirection = magnitude == 0 ? .zero : Vector2(magnitude * sc.cos, magnitude * sc.sin)
    }

    static func angleOf(_ v: Vector2) -> Double {
        // Bisection on the deterministic sine and cosine: no libm atan2 anywhere.
        var best = 0.0
        var lo = -Double.pi, hi = Double.pi
        for _ in 0..<60 {
            let mid = 0.5 * (lo + hi)
            let sc = DeterministicMath.sinCos(mid)
            if sc.cos * v.y - sc.sin * v.x > 0 { lo = mid } else { hi = mid }
            best = mid
        }
        return best
    }
}
