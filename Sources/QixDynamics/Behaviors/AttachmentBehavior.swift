/// A connection between an item and an anchor point or between two items (UIKit's
/// `UIAttachmentBehavior`): a rigid rod (frequency 0) or a spring, plus UIKit's pin, sliding,
/// fixed and limit (rope) kinds.
public final class AttachmentBehavior: DynamicBehavior {
    /// Which joint the attachment is.
    public enum Kind: Sendable {
        /// Rod (frequency 0) or spring between the two attachment points (UIKit's default).
        case distance
        /// The items turn freely about a shared anchor (optional angle range, friction torque).
        case pin
        /// The item slides along an axis without turning (optional translation range).
        case sliding
        /// The items are welded at an anchor.
        case fixed
        /// A rope: the distance may shrink but never exceed `length`.
        case limit
    }

    /// Whether the attachment ties an item to a point or to another item.
    public enum AttachedType: Sendable {
        /// Item to item.
        case items
        /// Item to anchor point.
        case anchor
    }

    /// The joint kind.
    public let kind: Kind
    /// One item (anchor attachments) or two.
    public let items: [DynamicItem]
    /// Attachment points relative to each item's centre, in the item's frame.
    public let offsets: [Vector2]
    /// The anchor point in reference coordinates (anchor attachments; pin, sliding and fixed use
    /// it as the shared point when they are added). Moving it drags the item.
    public var anchorPoint: Vector2 { didSet { dynamicAnimator?.anchorsDidMove() } }
    /// Rest length (points); nil until added, then the distance between the attachment points.
    public var length: Double? { didSet { didChange() } }
    /// Spring frequency in Hz; 0 makes a rigid rod.
    public var frequency = 0.0 { didSet { didChange() } }
    /// Damping ratio; 1 is critical.
    public var damping = 0.0 { didSet { didChange() } }
    /// Pin only: resistance to turning, in newton-points (UIKit newtons at 100 points/m: 1 is the
    /// torque of 100 points/s² on mass 1 at a 1-point lever); UIKit gives "no formal units".
    public var frictionTorque = 0.0 { didSet { didChange() } }
    /// Pin: angle range (radians); sliding: translation range (points, must include 0).
    public var attachmentRange: ClosedRange<Double> = -Double.infinity...Double.infinity { didSet { didChange() } }
    /// Sliding only: the axis of translation in reference coordinates.
    public var axisOfTranslation = Vector2(1, 0) { didSet { didChange() } }
    /// Item to item, or item to anchor.
    public var attachedBehaviorType: AttachedType { items.count == 2 ? .items : .anchor }
    var jointIndex = -1
    /// Local anchors and reference angle fixed when the behavior is added (pin, sliding, fixed).
    var frozenLocalA: Vector2?
    var frozenLocalB: Vector2?
    var referenceAngle = 0.0
    /// A rigid anchor attachment of (nearly) zero length acts as a pin, as in UIKit.
    var actsAsPin = false

    /// An attachment of any kind between one item and `anchor` or between two items, with
    /// each item's attachment point given as an offset from its centre (what UIKit's class
    /// factories for pin, sliding, fixed and limit attachments build).
    public init(kind: Kind, items: [DynamicItem], offsets: [Vector2], anchor: Vector2) {
        self.kind = kind
        self.items = items
        self.offsets = offsets
        self.anchorPoint = anchor
    }

    override var involvedItems: [DynamicItem] { items }

    /// Attaches the point `offset` (item frame) of `item` to `anchor`.
    public convenience init(item: DynamicItem, offsetFromCenter offset: Vector2 = .zero, attachedToAnchor anchor: Vector2) {
        self.init(kind: .distance, items: [item], offsets: [offset], anchor: anchor)
    }

    /// Attaches two items at the given offsets from their centres.
    public convenience init(item: DynamicItem, offsetFromCenter offset1: Vector2 = .zero, attachedTo item2: DynamicItem,
                            offsetFromCenter offset2: Vector2 = .zero) {
        self.init(kind: .distance, items: [item, item2], offsets: [offset1, offset2], anchor: .zero)
    }

    /// Two items (or one and the reference frame) that turn freely about `anchor`.
    public static func pinAttachment(with item: DynamicItem, attachedTo item2: DynamicItem? = nil, attachmentAnchor anchor: Vector2) -> AttachmentBehavior {
        AttachmentBehavior(kind: .pin, items: [item] + (item2.map { [$0] } ?? []), offsets: [.zero, .zero], anchor: anchor)
    }

    /// An item sliding along `axis` through `anchor` (relative to the reference frame or to `item2`).
    public static func slidingAttachment(with item: DynamicItem, attachedTo item2: DynamicItem? = nil, attachmentAnchor anchor: Vector2,
                                         axisOfTranslation axis: Vector2) -> AttachmentBehavior {
        let b = AttachmentBehavior(kind: .sliding, items: [item] + (item2.map { [$0] } ?? []), offsets: [.zero, .zero], anchor: anchor)
        b.axisOfTranslation = axis
        return b
    }

    /// Two items (or one and the reference frame) welded at `anchor`.
    public static func fixedAttachment(with item: DynamicItem, attachedTo item2: DynamicItem? = nil, attachmentAnchor anchor: Vector2) -> AttachmentBehavior {
        AttachmentBehavior(kind: .fixed, items: [item] + (item2.map { [$0] } ?? []), offsets: [.zero, .zero], anchor: anchor)
    }

    /// A rope between two items whose length is the distance when added (or `length` if set).
    public static func limitAttachment(with item: DynamicItem, offsetFromCenter offset1: Vector2 = .zero, attachedTo item2: DynamicItem,
                                       offsetFromCenter offset2: Vector2 = .zero) -> AttachmentBehavior {
        AttachmentBehavior(kind: .limit, items: [item, item2], offsets: [offset1, offset2], anchor: .zero)
    }

    /// A rope from an item to an anchor point.
    public static func limitAttachment(with item: DynamicItem, offsetFromCenter offset: Vector2 = .zero, attachedToAnchor anchor: Vector2) -> AttachmentBehavior {
        AttachmentBehavior(kind: .limit, items: [item], offsets: [offset], anchor: anchor)
    }

    /// The two attachment points in reference coordinates, from the items' current placement.
    func attachmentPoints() -> (Vector2, Vector2) {
        let first = items[0]
        let p1 = first.center + Rotation(angle: first.angle).rotate(offsets[0])
        if items.count == 2 {
            let second = items[1]
            return (p1, second.center + Rotation(angle: second.angle).rotate(offsets[1]))
        }
        return (anchorPoint, p1)
    }
}
