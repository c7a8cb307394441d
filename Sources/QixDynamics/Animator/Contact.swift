/// The parties of a contact: an item and either another item or a boundary; a contact that
/// began also says where (as Box2D v3's begin-touch events carry their manifold).
public struct Contact: Equatable {
    /// The first item (the one created first).
    public let item: DynamicItem
    /// The other item, for item-item contacts.
    public let otherItem: DynamicItem?
    /// The boundary's identifier (nil for the reference-bounds boundary, as in UIKit).
    public let boundaryIdentifier: String?
    // `point` and `normal` as plain values with their presence (and `isBoundary`) in one flags
    // byte: 72 bytes a contact instead of 88 with two optionals, which matters in the first frame
    // of a large pile (15 000 `contactBegan` events for the 5050-box pyramid).
    private let pointValue: Vector2
    private let normalValue: Vector2
    private let flags: UInt8

    /// True for item-boundary contacts.
    public var isBoundary: Bool { flags & Contact.boundaryFlag != 0 }
    /// Where the shapes touch (reference coordinates, points): the mean of the contact's one or
    /// two manifold points at the frame's last step. Set on `contactBegan` only (UIKit's ended
    /// callbacks carry no point either), and nil when the touch began and ended within one frame.
    public var point: Vector2? { flags & Contact.pointFlag != 0 ? pointValue : nil }
    /// The unit normal at `point`, from `item` toward the other item or the boundary; set with `point`.
    public var normal: Vector2? { flags & Contact.normalFlag != 0 ? normalValue : nil }

    private static let boundaryFlag: UInt8 = 1, pointFlag: UInt8 = 2, normalFlag: UInt8 = 4

    /// A contact between `item` and another item or a boundary, with where they touch if known.
    public init(item: DynamicItem, otherItem: DynamicItem?, isBoundary: Bool, boundaryIdentifier: String?,
                point: Vector2? = nil, normal: Vector2? = nil) {
        self.item = item
        self.otherItem = otherItem
        self.boundaryIdentifier = boundaryIdentifier
        pointValue = point ?? .zero
        normalValue = normal ?? .zero
        flags = (isBoundary ? Contact.boundaryFlag : 0) | (point != nil ? Contact.pointFlag : 0)
            | (normal != nil ? Contact.normalFlag : 0)
    }

    /// Equal when both name the same item objects, in the same roles, and the same boundary
    /// (where they touch does not matter: a began and its ended contact are equal).
    public static func == (a: Contact, b: Contact) -> Bool {
        a.item === b.item && a.otherItem === b.otherItem && a.isBoundary == b.isBoundary
            && a.boundaryIdentifier == b.boundaryIdentifier
    }
}
