/// The validated polygon of an item with a `.path` shape, held by reference so that the many
/// items without one carry a single nil reference.
final class PathGeometry {
    /// The polygon in the item's frame.
    let geometry: ConvexGeometry

    /// Holds `geometry`.
    init(geometry: ConvexGeometry) { self.geometry = geometry }
}
