/// Physical properties of items (UIKit's `UIDynamicItemBehavior`). A property left nil keeps the
/// item's effective UIKit default (elasticity 0.2, friction 0.2, density 1, resistance 0.1,
/// angular resistance 0.1, charge 0, not anchored, rotation allowed); when several behaviors set
/// the same property, the last added wins.
public final class DynamicItemBehavior: DynamicBehavior {
    /// Items described.
    public private(set) var items: [DynamicItem]
    /// Restitution, 0 (no bounce) to 1 (elastic), values outside clamped to 0...1; mixed as the larger of two.
    public var elasticity: Double? { didSet { didChange() } }
    /// Coulomb friction; mixed as the geometric mean.
    public var friction: Double? { didSet { didChange() } }
    /// Mass per area: density 1 on 100x100 points = mass 1.
    public var density: Double? { didSet { didChange() } }
    /// Linear damping (1/s).
    public var resistance: Double? { didSet { didChange() } }
    /// Angular damping (1/s).
    public var angularResistance: Double? { didSet { didChange() } }
    /// Charge for electric and magnetic fields.
    public var charge: Double? { didSet { didChange() } }
    /// Anchored items collide but never move.
    public var isAnchored: Bool? { didSet { didChange() } }
    /// False keeps the angle fixed.
    public var allowsRotation: Bool? { didSet { didChange() } }

    /// Properties for `items`.
    public init(items: [DynamicItem]) {
        self.items = items
    }

    override var involvedItems: [DynamicItem] { items }

    /// Adds an item (UIKit's `addItem(_:)`).
    public func addItem(_ item: DynamicItem) { items.append(item); didChange() }
    /// Removes an item (UIKit's `removeItem(_:)`).
    public func removeItem(_ item: DynamicItem) { items.removeAll { $0 === item }; didChange() }

    /// Adds to an item's linear velocity (points/s).
    public func addLinearVelocity(_ velocity: Vector2, for item: DynamicItem) {
        if let animator = dynamicAnimator {
            animator.addVelocity(velocity, angular: 0, to: item)
        } else {
            item.velocity += velocity
        }
    }

    /// Adds to an item's angular velocity (radians/s).
    public func addAngularVelocity(_ velocity: Double, for item: DynamicItem) {
        if let animator = dynamicAnimator {
            animator.addVelocity(.zero, angular: velocity, to: item)
        } else {
            item.angularVelocity += velocity
        }
    }

    /// An item's current linear velocity.
    public func linearVelocity(for item: DynamicItem) -> Vector2 { item.velocity }
    /// An item's current angular velocity.
    public func angularVelocity(for item: DynamicItem) -> Double { item.angularVelocity }
}
