import QixDynamics
import QixScenes

/// One card of a deck: an id, a size (given, or from its component stack) and where its centre
/// rests relative to the screen centre.
public struct CardSpec: Equatable, Sendable {
    /// Card id (unique in the deck).
    public var id: String
    /// Width and height in points.
    public var size: Vector2
    /// Offset of the rest point from the screen centre.
    public var offset: Vector2
    /// Heights of the stacked components (text, image, icon row, animation, footer), if given.
    public var componentHeights: [Double]
}

/// A card deck file (CONTRACTS.md): screen, fling threshold, fall gravity and pages of cards.
public struct Deck: Sendable {
    /// Screen size in points.
    public var screen: Vector2
    /// Release speed (points/s) above which a lift flings the page.
    public var flingThreshold: Double
    /// Gravity magnitude of the fall (1 = 1000 points/s^2).
    public var gravity: Double
    /// Display frames per second (extension, default 60).
    public var frameRate: Double
    /// Width of cards sized by components (extension, default 300).
    public var cardWidth: Double
    /// Frequency (Hz) and damping of the spring tying each card to its rest point (extension).
    public var restFrequency: Double
    /// Damping ratio of that spring.
    public var restDamping: Double
    /// Frequency (Hz) of the critically damped spring between the finger and the dragged card (extension).
    public var dragFrequency: Double
    /// Pages in order, each a list of cards.
    public var pages: [[CardSpec]]

    /// The rest point of a card.
    public func restPoint(_ card: CardSpec) -> Vector2 { 0.5 * screen + card.offset }

    /// Reads and checks a deck file, naming the JSON path of any problem.
    public static func load(_ bytes: [UInt8]) throws(JSONPathError) -> Deck {
        let root = try JSONObjectReader(try JSONValue.parse(bytes), path: "")
        try root.allowOnly(["screen", "flingThreshold", "gravity", "frameRate", "cardWidth", "restFrequency", "restDamping", "dragFrequency", "pages"])
        let screen = try root.requiredVector("screen")
        guard screen.x > 0, screen.y > 0 else { throw JSONPathError("screen", "width and height must be positive") }
        let threshold = try root.requiredNumber("flingThreshold")
        guard threshold >= 0 else { throw JSONPathError("flingThreshold", "must not be negative") }
        let gravity = try root.number("gravity", default: 1, in: 0...1000)
        let frameRate = try root.number("frameRate", default: 60, in: 1...1000)
        let cardWidth = try root.number("cardWidth", default: 300, in: 1...100_000)
        let restFrequency = try root.number("restFrequency", default: 2.5, in: 0.01...60)
        let restDamping = try root.number("restDamping", default: 0.7, in: 0...100)
        let dragFrequency = try root.number("dragFrequency", default: 6, in: 0.01...60)
        guard let rawPages = try root.array("pages") else { throw JSONPathError("pages", "missing required field") }
        if rawPages.isEmpty { throw JSONPathError("pages", "a deck needs at least one page") }
        var pages: [[CardSpec]] = []
        var ids = Set<String>()  // membership only
        for (p, rawPage) in rawPages.enumerated() {
            guard case .array(let rawCards) = rawPage else { throw JSONPathError("pages[\(p)]", "expected a list of cards, found \(rawPage.typeName)") }
            if rawCards.isEmpty { throw JSONPathError("pages[\(p)]", "a page needs at least one card") }
            var page: [CardSpec] = []
            for (c, rawCard) in rawCards.enumerated() {
                let card = try Self.card(rawCard, path: "pages[\(p)][\(c)]", width: cardWidth)
                // A rest point more than a screen beyond the screen's edges is not a layout (and a
                // spring or rope stretched across 1e8 points only overflows).
                guard abs(card.offset.x) <= 1.5 * screen.x, abs(card.offset.y) <= 1.5 * screen.y else {
                    throw JSONPathError("pages[\(p)][\(c)].offset", "must be within 1.5 screen widths and heights of the centre")
                }
                if !ids.insert(card.id).inserted { throw JSONPathError("pages[\(p)][\(c)].id", "duplicate card id \"\(card.id)\"") }
                page.append(card)
            }
            pages.append(page)
        }
        return Deck(screen: screen, flingThreshold: threshold, gravity: gravity, frameRate: frameRate, cardWidth: cardWidth,
                    restFrequency: restFrequency, restDamping: restDamping, dragFrequency: dragFrequency, pages: pages)
    }

    static func card(_ raw: JSONValue, path: String, width: Double) throws(JSONPathError) -> CardSpec {
        let r = try JSONObjectReader(raw, path: path)
        try r.allowOnly(["id", "size", "components", "offset"])
        let id = try r.requiredString("id")
        var heights: [Double] = []
        var size: Vector2
        if let s = try r.vector("size") {
            if r.has("components") { throw JSONPathError(r.path("components"), "give either size or components") }
            guard s.x > 0, s.y > 0 else { throw JSONPathError(r.path("size"), "width and height must be positive") }
            size = s
        } else if let components = try r.array("components") {
            if components.isEmpty { throw JSONPathError(r.path("components"), "a card needs at least one component") }
            for (k, rawComponent) in components.enumerated() {
                let cr = try JSONObjectReader(rawComponent, path: "\(r.path("components"))[\(k)]")
                try cr.allowOnly(["kind", "height"])
                if let kind = try cr.string("kind"), !["text", "image", "iconRow", "animation", "footer"].contains(kind) {
                    throw JSONPathError(cr.path("kind"), "unknown component kind \"\(kind)\" (text, image, iconRow, animation, footer)")
                }
                let h = try cr.requiredNumber("height")
                guard h > 0 else { throw JSONPathError(cr.path("height"), "must be positive") }
                heights.append(h)
            }
            size = Vector2(width, heights.reduce(0, +))
        } else {
            throw JSONPathError(r.path("size"), "missing: give size or components")
        }
        return CardSpec(id: id, size: size, offset: try r.vector("offset") ?? .zero, componentHeights: heights)
    }
}
