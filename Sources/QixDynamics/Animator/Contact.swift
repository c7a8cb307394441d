/// The parties of a contact: an item and either another item or a boundary; a contact that
/// began also says where (as Box2D v3's begin-touch events carry their manifold).
public struct Contact: Equatable {
    /// The first item (the one created first).
    public let item: DynamicItem
    /// The other item, for item-item contacts.
    public let otherItem: DynamicItem?
    /// True for item-boundary contacts.
    public let isBoundary: Bool
    /// The boundary's identifier (nil for the reference-bounds boundary, as in UIKit).
    public let boundaryIdentifier: String?
    /// Where the shapes touch (reference coordinates, points): the mean of the contact's one or
    /// two manifold points at the frame's last step. Set on `contactBegan` only (UIKit's ended
    /// callbacks carry no point either), and nil when the touch began and ended within one frame.
    public let point: Vector2?
    /// The unit normal at `point`, from `item` toward the other item or the boundary; set with `point`.
    public let normal: Vector2?

    /// A contact between `item` and another item or a boundary, with where they touch if known.
    public init(item: DynamicItem, otherItem: DynamicItem?, isBoundary: Bool, boundaryIdentifier: String?,
                point: Vector2? = nil, normal: Vector2? = nil) {
        self.item = item
        self.otherItem = otherItem
        self.isBoundary = isBoundary
        self.boundaryIdentifier = boundaryIdentifier
        self.point = point
        self.normal = normal
    }

    /// Equal when both name the same item objects, in the same roles, and the same boundary
    /// (where they touch does not matter: a began and its ended contact are equal).
    public static func == (a: Contact, b: Contact) -> Bool {
        a.item === b.item && a.otherItem === b.otherItem && a.isBoundary == b.isBoundary
            && a.boundaryIdentifier == b.boundaryIdentifier
    }
}
