/// A force or impulse on items (UIKit's `UIPushBehavior`). Magnitude 1 accelerates a 100x100,
/// density-1 item at 100 points/s^2 (continuous) or adds 100 points/s once (instantaneous).
public final class PushBehavior: DynamicBehavior {
    /// Continuous force every step, or a single impulse.
    public enum Mode: Sendable {
        /// A force applied at every step while active.
        case continuous
        /// An impulse applied once; `active` then turns false.
        case instantaneous
    }

    /// Items pushed.
    public private(set) var items: [DynamicItem]
    /// Force or impulse mode.
    public let mode: Mode
    /// Whether the push applies; setting it true again re-applies an instantaneous push.
    public var active: Bool {
        get { isActive }
        set {
            isActive = newValue
            if newValue { pendingImpulse = mode == .instantaneous }
            didChange()
        }
    }
    var isActive = true
    /// Direction and size in push units (default zero: no force).
    public var pushDirection = Vector2.zero { didSet { didChange() } }
    private var offsets: [Vector2]
    var pendingImpulse: Bool

    /// A push of the given mode on `items`.
    public init(items: [DynamicItem], mode: Mode) {
        self.items = items
        self.mode = mode
        self.offsets = Array(repeating: .zero, count: items.count)
        self.pendingImpulse = mode == .instantaneous
    }

    override var involvedItems: [DynamicItem] { items }

    /// Adds an item, pushed at its centre (UIKit's `addItem(_:)`).
    public func addItem(_ item: DynamicItem) {
        items.append(item)
        offsets.append(.zero)
        didChange()
    }

    /// Removes an item and its push offset (UIKit's `removeItem(_:)`).
    public func removeItem(_ item: DynamicItem) {
        guard let k = items.firstIndex(where: { $0 === item }) else { return }
        items.remove(at: k)
        offsets.remove(at: k)
        didChange()
    }

    /// The direction's length.
    public var magnitude: Double {
        get { pushDirection.length }
        set { setAngle(angle, magnitude: newValue) }
    }

    /// The direction's angle (radians).
    public var angle: Double {
        get { pushDirection == .zero ? 0 : GravityBehavior.angleOf(pushDirection) }
        set { setAngle(newValue, magnitude: magnitude) }
    }

    /// Sets the direction from an angle and a magnitude (a negative magnitude reverses it).
    public func setAngle(_ angle: Double, magnitude: Double) {
        let sc = DeterministicMath.sinCos(angle)
        pushDirection = Vector2(magnitude * sc.cos, magnitude * sc.sin)
    }

    /// Where the force acts on `item`, relative to its centre in the item's own frame (gives torque).
    public func setTargetOffsetFromCenter(_ offset: Vector2, for item: DynamicItem) {
        if let k = items.firstIndex(where: { $0 === item }) { offsets[k] = offset }
        didChange()
    }

    /// The application point offset for `item`.
    public func targetOffsetFromCenter(for item: DynamicItem) -> Vector2 {
        items.firstIndex(where: { $0 === item }).map { offsets[$0] } ?? .zero
    }

    func offset(at index: Int) -> Vector2 { offsets[index] }
}
