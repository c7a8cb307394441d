import QixDynamics
/// A scene file brought to life: its items, an animator with the scene's behaviors, and the
/// timeline of actions, ready to run frame by frame (the engine behind `qix sim`).
public final class Scene {
    /// The reference bounds, if the scene gave them.
    public let referenceBounds: Rect?
    /// Display frames per second.
    public let frameRate: Double
    /// The scene's own duration in seconds, if it gave one.
    public let duration: Double?
    /// Items in file order (traces and hashes use this order).
    public let items: [DynamicItem]
    /// The animator running the behaviors.
    public let animator: DynamicAnimator
    /// Static segments for drawing (boundaries of every collision behavior at load time).
    public let boundarySegments: [(Vector2, Vector2)]
    /// Timeline actions sorted by time (stable).
    let timeline: [TimelineAction]
    private var nextAction = 0
    /// Frames shown so far.
    public private(set) var frame = 0

    init(referenceBounds: Rect?, frameRate: Double, duration: Double?, items: [DynamicItem], animator: DynamicAnimator,
         boundarySegments: [(Vector2, Vector2)], timeline: [TimelineAction]) {
        self.referenceBounds = referenceBounds
        self.frameRate = frameRate
        self.duration = duration
        self.items = items
        self.animator = animator
        self.boundarySegments = boundarySegments
        self.timeline = timeline
    }

    /// Time of frame `n` (seconds).
    public func time(ofFrame n: Int) -> Double { Double(n) / frameRate }

    /// Runs the timeline actions due at the current time, then advances one display frame and
    /// returns its events. Actions at time T run at the first frame whose time is at or after T.
    public func advanceFrame() -> [AnimatorEvent] {
        let now = time(ofFrame: frame)
        while nextAction < timeline.count, timeline[nextAction].time <= now + 1e-9 {
            timeline[nextAction].apply(to: animator)
            nextAction += 1
        }
        frame += 1
        return animator.advance(by: 1 / frameRate)
    }
}

/// One scheduled change of a scene.
struct TimelineAction {
    enum Change {
        case addBehavior(DynamicBehavior)
        case removeBehavior(DynamicBehavior)
        case setAnchor(AttachmentBehavior, Vector2)
        case setSnapPoint(SnapBehavior, Vector2)
        case addLinearVelocity(DynamicItem, Vector2)
        case addAngularVelocity(DynamicItem, Double)
    }

    var time: Double
    var change: Change

    func apply(to animator: DynamicAnimator) {
        switch change {
        case .addBehavior(let b): animator.addBehavior(b)
        case .removeBehavior(let b): animator.removeBehavior(b)
        case .setAnchor(let b, let p): b.anchorPoint = p
        case .setSnapPoint(let b, let p): b.snapPoint = p
        case .addLinearVelocity(let item, let v): animator.addVelocity(v, angular: 0, to: item)
        case .addAngularVelocity(let item, let w): animator.addVelocity(.zero, angular: w, to: item)
        }
    }
}
