/// Pulls an item to a point with a damped spring and turns it back to angle 0 (UIKit's
/// `UISnapBehavior`): four 4 Hz spring rods of 50 points from two opposite corners to fixed points.
public final class SnapBehavior: DynamicBehavior {
    /// The item snapped.
    public let item: DynamicItem
    /// Target centre (points); moving it wakes the animator.
    public var snapPoint: Vector2 { didSet { dynamicAnimator?.anchorsDidMove() } }
    /// Damping ratio of the springs: 0 oscillates most, 1 least (default 0.5).
    public var damping = 0.5 { didSet { didChange() } }
    /// Spring frequency (UIKit's private value, 4 Hz).
    public static let frequency = 4.0
    /// Spring rest length (UIKit's private value, 50 points).
    public static let springLength = 50.0
    var jointStart = -1

    /// Snaps `item` to `point`.
    public init(item: DynamicItem, snapTo point: Vector2) {
        self.item = item
        self.snapPoint = point
    }

    override var involvedItems: [DynamicItem] { [item] }
}
