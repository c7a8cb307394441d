/// Several items moving as one rigid body (UIKit's `UIDynamicItemGroup`): a dynamic item that
/// any behavior takes in place of its items. Its bounds enclose its items' frames and its
/// centre is theirs; the items keep the places and angles they had in the group when it was
/// made, and each collides with its own shape, never with another item of the group. See
/// docs/dynamics.md for how the world holds a group and the limits of that.
public final class DynamicItemGroup: DynamicItem {
    /// The grouped items, in the order given; fixed once made (as in UIKit).
    public let items: [DynamicItem]
    /// Each item's centre relative to the group's centre, in the group's frame.
    let offsets: [Vector2]
    /// Each item's angle relative to the group's angle, and its rotation.
    let angleOffsets: [Double]
    let offsetRotations: [Rotation]

    /// Groups `items` as they stand (the group's angle starts at 0, its velocities at zero);
    /// throws when `items` is empty, repeats an item, holds a group or takes an item that is
    /// already in another group (UIKit: a group cannot contain groups).
    public init(identifier: String = "group", items: [DynamicItem]) throws(DynamicsError) {
        guard !items.isEmpty else { throw .invalidGroup(identifier, "a group needs at least one item") }
        var lower = Vector2(Double.infinity, Double.infinity), upper = Vector2(-Double.infinity, -Double.infinity)
        for (k, item) in items.enumerated() {
            if item is DynamicItemGroup { throw .invalidGroup(identifier, "item \(item.identifier) is a group") }
            if items[..<k].contains(where: { $0 === item }) { throw .invalidGroup(identifier, "item \(item.identifier) is given twice") }
            if let other = item.group { throw .invalidGroup(identifier, "item \(item.identifier) is in group \(other.identifier)") }
            let f = item.frame
            lower = Vector2(min(lower.x, f.origin.x), min(lower.y, f.origin.y))
            upper = Vector2(max(upper.x, f.origin.x + f.size.x), max(upper.y, f.origin.y + f.size.y))
        }
        let center = 0.5 * (lower + upper)
        self.items = items
        self.offsets = items.map { $0.center - center }
        self.angleOffsets = items.map(\.angle)
        self.offsetRotations = items.map { Rotation(angle: $0.angle) }
        try super.init(identifier: identifier, center: center, size: upper - lower)
        for item in items { item.group = self }
    }

    /// Where the point `offset` (relative to the group's centre, in its frame) is in the frame of
    /// item `k` relative to that item's centre.
    func itemPoint(_ k: Int, _ offset: Vector2) -> Vector2 {
        offsetRotations[k].inverseRotate(offset - offsets[k])
    }
}
