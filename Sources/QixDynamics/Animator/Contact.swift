/// The parties of a contact: an item and either another item or a boundary.
public struct Contact: Equatable {
    /// The first item (the one created first).
    public let item: DynamicItem
    /// The other item, for item-item contacts.
    public let otherItem: DynamicItem?
    /// True for item-boundary contacts.
    public let isBoundary: Bool
    /// The boundary's identifier (nil for the reference-bounds boundary, as in UIKit).
    public let boundaryIdentifier: String?

    /// Equal when both name the same item objects, in the same roles, and the same boundary.
    public static func == (a: Contact, b: Contact) -> Bool {
        a.item === b.item && a.otherItem === b.otherItem && a.isBoundary == b.isBoundary
            && a.boundaryIdentifier == b.boundaryIdentifier
    }
}
