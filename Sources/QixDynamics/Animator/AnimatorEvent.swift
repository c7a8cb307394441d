/// Something that happened during a display frame, reported by `DynamicAnimator.advance(by:)`.
public enum AnimatorEvent: Equatable {
    /// Two items, or an item and a boundary, started touching.
    case contactBegan(Contact)
    /// They stopped touching.
    case contactEnded(Contact)
    /// Every item came to rest; the animator stopped stepping (UIKit's `dynamicAnimatorDidPause`).
    case paused
    /// Something changed and the animator runs again (UIKit's `dynamicAnimatorWillResume`).
    case resumed
}

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

/// A rectangle in reference coordinates (points).
public struct Rect: Equatable, Sendable {
    /// Top-left corner.
    public var origin: Vector2
    /// Width and height.
    public var size: Vector2

    /// A rectangle from its corner and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Vector2(x, y)
        size = Vector2(width, height)
    }
}
