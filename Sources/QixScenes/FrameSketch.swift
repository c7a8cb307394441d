import QixDynamics

/// What one frame shows, in reference coordinates: the items' outlines with their ids, the
/// joints between items or to anchors, anchors, snap points and the finger. Taken from the
/// engine's public state, so QixDynamics itself knows nothing of drawing.
public struct FrameSketch: Sendable {
    /// One item's outline.
    public struct Outline: Sendable {
        /// The item's identifier (its label and its colour's key).
        public var id: String
        /// The outline's corners, in order.
        public var points: [Vector2]
        /// The item's centre, where its label goes.
        public var center: Vector2
    }

    /// How a link is drawn: one style per joint the reader should tell apart.
    public enum LinkStyle: String, CaseIterable, Sendable {
        /// A rigid rod (distance attachment of frequency 0).
        case rod
        /// A spring (distance attachment with a frequency).
        case spring
        /// A rope (limit attachment): slack allowed, never longer than its length.
        case rope
        /// A pin, sliding or fixed joint.
        case joint
        /// A snap behaviour's pull from the item to its snap point.
        case snap
    }

    /// A line between two attachment points.
    public struct Link: Sendable {
        /// The joint's kind.
        public var style: LinkStyle
        /// The first end (the anchor for an anchor attachment).
        public var from: Vector2
        /// The second end (on the item).
        public var to: Vector2
    }

    /// Item outlines in drawing order.
    public var outlines: [Outline]
    /// Joints and snap pulls.
    public var links: [Link] = []
    /// Anchor points of attachments to the reference frame.
    public var anchors: [Vector2] = []
    /// Snap behaviours' target points.
    public var snapPoints: [Vector2] = []
    /// The finger on the screen, if one is down.
    public var finger: Vector2?

    /// A sketch of outlines only (what older callers captured).
    public init(outlines: [Outline], finger: Vector2? = nil) {
        self.outlines = outlines
        self.finger = finger
    }

    /// A sketch of `items` with the joints and snap points of `behaviors` (the animator's
    /// behaviours) and the `finger`, at the items' current placement.
    public init(items: [DynamicItem], behaviors: [DynamicBehavior] = [], finger: Vector2? = nil) {
        self.init(outlines: items.map { Outline(id: $0.identifier, points: $0.outline, center: $0.center) }, finger: finger)
        for behavior in Self.withChildren(behaviors) {
            if let attachment = behavior as? AttachmentBehavior {
                add(attachment)
            } else if let snap = behavior as? SnapBehavior {
                snapPoints.append(snap.snapPoint)
                links.append(Link(style: .snap, from: snap.snapPoint, to: snap.item.center))
            }
        }
    }

    /// `behaviors` with their child behaviors, depth first, parents before children (the order
    /// the animator applies them in): an attachment or snap added as a child is drawn too.
    static func withChildren(_ behaviors: [DynamicBehavior]) -> [DynamicBehavior] {
        var all: [DynamicBehavior] = []
        func visit(_ behavior: DynamicBehavior) {
            all.append(behavior)
            for child in behavior.childBehaviors { visit(child) }
        }
        for behavior in behaviors { visit(behavior) }
        return all
    }

    /// Adds an attachment's line, and its anchor when it ties an item to the reference frame.
    private mutating func add(_ attachment: AttachmentBehavior) {
        let style = Self.style(of: attachment)
        // The attachment points from public state: each item's centre plus its offset turned
        // with the item. Pin, sliding and fixed joints keep their own frozen points inside the
        // engine; their offsets are zero, so their lines run centre to centre (or to the anchor).
        let ends = zip(attachment.items, attachment.offsets).map { item, offset in
            item.center + Rotation(angle: item.angle).rotate(offset)
        }
        if ends.count == 2 {
            links.append(Link(style: style, from: ends[0], to: ends[1]))
        } else if let end = ends.first {
            anchors.append(attachment.anchorPoint)
            links.append(Link(style: style, from: attachment.anchorPoint, to: end))
        }
    }

    /// How an attachment is drawn: by its kind, and for a distance attachment by whether it
    /// springs.
    static func style(of attachment: AttachmentBehavior) -> LinkStyle {
        switch attachment.kind {
        case .distance: return attachment.frequency > 0 ? .spring : .rod
        case .limit: return .rope
        case .pin, .sliding, .fixed: return .joint
        }
    }

    /// Every point the sketch draws (to fit a region around it).
    var allPoints: [Vector2] {
        outlines.flatMap(\.points) + anchors + snapPoints + (finger.map { [$0] } ?? [])
    }
}
