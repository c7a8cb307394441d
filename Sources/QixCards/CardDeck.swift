import QixDynamics
import QixScenes

/// The app's card-deck animation driven headless: pages shown one at a time, cards tied to rest
/// points by springs and to each other by ropes, entering by snaps, dragged by one finger at a
/// time, flung away under gravity or settling back. Built only from QixDynamics behaviors.
public final class CardDeck {
    /// What a card is doing.
    enum Mode {
        case waiting, snapping, resting, dragging, falling, gone
    }

    /// The deck description.
    public let deck: Deck
    /// The animator running the cards.
    public let animator: DynamicAnimator
    /// All cards, page by page, in deck order (hashes use this order).
    public let pages: [[DynamicItem]]
    /// Called with every event as it happens (the same events `advanceFrame` returns).
    public var onEvent: ((CardEvent) -> Void)?
    /// Index of the page on screen (0-based), or nil before the first frame and after the end.
    public internal(set) var currentPage: Int?
    /// True once the last page has been dismissed.
    public internal(set) var isFinished = false
    /// Frames advanced so far.
    public private(set) var frame = 0

    let gestures: GestureScript
    var modes: [[Mode]]
    var pageBehaviors: [DynamicBehavior] = []
    var restAttachments: [AttachmentBehavior?] = []
    var snaps: [SnapBehavior?] = []
    var gravity: GravityBehavior?
    var isSettled = false
    var isFalling = false
    private var nextTouch = 0
    private var activeTouch: Int?
    private var drag: AttachmentBehavior?
    private var dragCard = 0
    private var pendingEvents: [CardEvent] = []

    /// A deck ready to run `gestures`; throws when a card size is not positive.
    public init(deck: Deck, gestures: GestureScript = GestureScript()) throws(DynamicsError) {
        self.deck = deck
        self.gestures = gestures
        self.animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: deck.screen.x, height: deck.screen.y))
        var pages: [[DynamicItem]] = []
        for page in deck.pages {
            var items: [DynamicItem] = []
            for card in page {
                // Cards wait one screen height above their rest points (keeping the page's layout, so
                // they do not overlap) until their page enters.
                let rest = deck.restPoint(card)
                items.append(try DynamicItem(identifier: card.id, center: Vector2(rest.x, rest.y - deck.screen.y), size: card.size))
            }
            pages.append(items)
        }
        self.pages = pages
        self.modes = deck.pages.map { $0.map { _ in .waiting } }
    }

    /// Seconds per display frame.
    public var frameDuration: Double { 1 / deck.frameRate }
    /// Time of the current frame.
    public var time: Double { Double(frame) / deck.frameRate }

    /// Cards of the page on screen.
    public var visibleCards: [DynamicItem] { currentPage.map { pages[$0] } ?? [] }

    /// Where the finger dragging a card is (the drag's anchor, moved to the finger each frame),
    /// nil while no drag is active: what a picture of the run draws as the finger.
    public var fingerPosition: Vector2? { drag?.anchorPoint }

    /// Whether every card on screen rests (no drag, no fall, settled).
    public var isAtRest: Bool { activeTouch == nil && !isFalling && isSettled }

    func emit(_ e: CardEvent) {
        pendingEvents.append(e)
        onEvent?(e)
    }

    /// Applies the gestures due now, advances one display frame, and returns the frame's events.
    public func advanceFrame() -> [CardEvent] {
        pendingEvents.removeAll()
        if frame == 0 && currentPage == nil && !isFinished { show(page: 0) }
        handleGestures(at: time)
        frame += 1
        for e in animator.advance(by: frameDuration) { emit(.physics(e)) }
        afterStep()
        return pendingEvents
    }

    // MARK: Gestures

    private func handleGestures(at t: Double) {
        // Lift first, so a touch starting in the same frame as another lifts can take over.
        if let k = activeTouch {
            let touch = gestures.touches[k]
            if t + 1e-9 >= touch.end {
                lift(touch)
            } else {
                drag?.anchorPoint = touch.position(at: t)
            }
        }
        while nextTouch < gestures.touches.count, gestures.touches[nextTouch].start <= t + 1e-9 {
            let k = nextTouch
            nextTouch += 1
            let touch = gestures.touches[k]
            // One drag at a time; touches on cards not on screen, on a falling page, or that go
            // down beside their card (a view's gesture only sees touches inside it) are ignored.
            guard activeTouch == nil, !isFalling, let page = currentPage,
                  let c = deck.pages[page].firstIndex(where: { $0.id == touch.card }),
                  Self.contains(pages[page][c], touch.position(at: touch.start)) else { continue }
            begin(touch, index: k, card: c, page: page)
            if t + 1e-9 >= touch.end { lift(touch) }
        }
    }

    /// Whether `point` lies on the card's rectangle at its current centre and angle.
    static func contains(_ card: DynamicItem, _ point: Vector2) -> Bool {
        let local = Rotation(angle: card.angle).inverseRotate(point - card.center)
        return abs(local.x) <= 0.5 * card.size.x && abs(local.y) <= 0.5 * card.size.y
    }

    private func begin(_ touch: Touch, index: Int, card c: Int, page: Int) {
        let item = pages[page][c]
        let point = touch.position(at: touch.start)
        let offset = Rotation(angle: item.angle).inverseRotate(point - item.center)
        removeSpring(of: c)
        // A stiff, critically damped spring rather than a rigid pin: the finger leads, and contacts
        // (30 Hz) can still hold other cards off instead of being overpowered by a rigid joint.
        let attachment = AttachmentBehavior(item: item, offsetFromCenter: offset, attachedToAnchor: point)
        attachment.length = 0
        attachment.frequency = deck.dragFrequency
        attachment.damping = 1
        animator.addBehavior(attachment)
        drag = attachment
        dragCard = c
        activeTouch = index
        modes[page][c] = .dragging
        isSettled = false
        emit(.dragBegan(card: touch.card, point: point))
    }

    private func lift(_ touch: Touch) {
        activeTouch = nil
        if let drag { animator.removeBehavior(drag) }
        drag = nil
        let velocity = touch.releaseVelocity
        emit(.dragEnded(card: touch.card, velocity: velocity))
        guard let page = currentPage else { return }
        if velocity.length > deck.flingThreshold {
            emit(.flung(page: page + 1, card: touch.card, velocity: velocity))
            fall(page: page)
        } else {
            snapBack(card: dragCard, page: page)
        }
    }
}
