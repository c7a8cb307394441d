/// Makes items collide with each other and with boundaries (UIKit's `UICollisionBehavior`).
/// Items only collide with items and boundaries of a collision behavior they share.
public final class CollisionBehavior: DynamicBehavior {
    /// What collides.
    public struct Mode: OptionSet, Sendable {
        /// The option bits.
        public let rawValue: Int
        /// Makes a mode from bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Items collide with each other.
        public static let items = Mode(rawValue: 1)
        /// Items collide with boundaries.
        public static let boundaries = Mode(rawValue: 2)
        /// Both (UIKit's default).
        public static let everything: Mode = [.items, .boundaries]
    }

    /// A named static outline: a segment or a closed polygon.
    public struct Boundary: Sendable {
        /// The name reported in contact events.
        public var identifier: String
        /// The outline's points (two for a segment).
        public var points: [Vector2]
        /// Whether the last point joins the first.
        public var isClosed: Bool
    }

    /// Items in this behavior.
    public private(set) var items: [DynamicItem]
    /// Items, boundaries or everything (default).
    public var collisionMode: Mode = .everything { didSet { didChange() } }
    /// Whether the animator's reference bounds are a boundary (reported with a nil identifier).
    public var translatesReferenceBoundsIntoBoundary = false { didSet { didChange() } }
    /// Insets of that boundary: top, left, bottom, right (points).
    public var referenceBoundsInsets = (top: 0.0, left: 0.0, bottom: 0.0, right: 0.0) { didSet { didChange() } }
    /// Named boundaries, in the order added.
    public private(set) var boundaries: [Boundary] = []
    var boundaryBodies: [Int] = []
    var boundarySegments: [(Vector2, Vector2)] = []

    /// Collisions among `items`.
    public init(items: [DynamicItem]) {
        self.items = items
    }

    override var involvedItems: [DynamicItem] { items }

    /// Adds an item.
    public func addItem(_ item: DynamicItem) { items.append(item); didChange() }
    /// Removes an item.
    public func removeItem(_ item: DynamicItem) { items.removeAll { $0 === item }; didChange() }

    /// Adds a segment boundary.
    public func addBoundary(identifier: String, from: Vector2, to: Vector2) {
        boundaries.append(Boundary(identifier: identifier, points: [from, to], isClosed: false))
        didChange()
    }

    /// Adds a closed polygon boundary (its edges are two-sided segments).
    public func addBoundary(identifier: String, polygon: [Vector2]) {
        addBoundary(identifier: identifier, path: polygon, isClosed: true)
    }

    /// Adds a boundary along a path (UIKit's `addBoundary(withIdentifier:for:)` with a
    /// `UIBezierPath` of lines): an open polyline, or closed when the last point joins the first.
    /// Its edges are two-sided segments; edges of zero length are skipped.
    public func addBoundary(identifier: String, path: [Vector2], isClosed: Bool) {
        boundaries.append(Boundary(identifier: identifier, points: path, isClosed: isClosed))
        didChange()
    }

    /// The boundary with that identifier (the first, if several share it).
    public func boundary(identifier: String) -> Boundary? {
        boundaries.first { $0.identifier == identifier }
    }

    /// Removes the boundary with that identifier.
    public func removeBoundary(identifier: String) {
        boundaries.removeAll { $0.identifier == identifier }
        didChange()
    }

    /// Removes every named boundary (the reference-bounds boundary stays as set).
    public func removeAllBoundaries() {
        boundaries.removeAll()
        didChange()
    }

    /// The identifiers of the named boundaries.
    public var boundaryIdentifiers: [String] { boundaries.map(\.identifier) }
}
