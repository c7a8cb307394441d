/// Where a field acts, relative to its position (UIKit's `UIRegion`): a disc, a rectangle or
/// everywhere, and the regions built from them by union, intersection, difference and inverse.
public enum FieldRegion: Equatable, Sendable {
    /// Everywhere (default).
    case infinite
    /// A disc of this radius (points).
    case circle(radius: Double)
    /// A rectangle of this size centred on the position.
    case rectangle(size: Vector2)
    /// The points in either region.
    indirect case union(FieldRegion, FieldRegion)
    /// The points in both regions.
    indirect case intersection(FieldRegion, FieldRegion)
    /// The points in the first region and not in the second.
    indirect case difference(FieldRegion, FieldRegion)
    /// The points not in the region.
    indirect case inverse(FieldRegion)

    /// The points in this region or in `region` (UIKit's `byUnion(with:)`).
    public func byUnion(with region: FieldRegion) -> FieldRegion { .union(self, region) }

    /// The points in this region and in `region` (UIKit's `byIntersection(with:)`).
    public func byIntersection(with region: FieldRegion) -> FieldRegion { .intersection(self, region) }

    /// The points in this region that are not in `region` (UIKit's `byDifference(from:)`:
    /// "subtracting the specified region from the current region").
    public func byDifference(from region: FieldRegion) -> FieldRegion { .difference(self, region) }

    /// The points not in this region (UIKit's `inverse()`); the inverse of `.infinite` is empty.
    public func inverse() -> FieldRegion { .inverse(self) }

    /// Whether the region holds `point`, given relative to the field's position (UIKit's
    /// `contains(_:)`); edges count as inside, so an inverse leaves them out.
    public func contains(_ point: Vector2) -> Bool {
        switch self {
        case .infinite: return true
        case .circle(let r): return point.lengthSquared <= r * r
        case .rectangle(let size): return abs(point.x) <= 0.5 * size.x && abs(point.y) <= 0.5 * size.y
        case .union(let a, let b): return a.contains(point) || b.contains(point)
        case .intersection(let a, let b): return a.contains(point) && b.contains(point)
        case .difference(let a, let b): return a.contains(point) && !b.contains(point)
        case .inverse(let a): return !a.contains(point)
        }
    }
}
