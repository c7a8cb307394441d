/// Something the animator moves: a rigid body with a centre, a bounds size, a rotation angle and
/// velocities, like a view conforming to `UIDynamicItem`. The animator writes the state back
/// after every display frame. (Not final only for `DynamicItemGroup`; it cannot be subclassed
/// outside QixDynamics.)
public class DynamicItem {
    /// A name for traces and events.
    public let identifier: String
    /// Centre in reference coordinates (points).
    // The four state fields are written for every item after every frame: unchecked, their
    // writes skip the runtime's dynamic exclusivity check (76 instructions each, 1 % of a
    // base-20 pyramid's step). Nothing in the package holds an access to them across a call.
    @exclusivity(unchecked) public var center: Vector2
    /// Bounds size (points); fixes the collision shape and, with density, the mass.
    public let size: Vector2
    /// Rotation in radians, cumulative (never wrapped).
    @exclusivity(unchecked) public var angle: Double
    /// Linear velocity (points/s).
    @exclusivity(unchecked) public var velocity = Vector2.zero
    /// Angular velocity (radians/s).
    @exclusivity(unchecked) public var angularVelocity = 0.0
    /// Collision outline.
    public let shape: ItemShape
    /// A `.path` shape's polygon, validated once at init. Rectangles and ellipses are rebuilt
    /// from the size when asked for: the world keeps every body's vertices anyway, and two
    /// arrays per item cost 190 bytes of each box of a 5050-box pyramid. Boxed, so that items
    /// without a path carry one reference, not the 24-byte geometry (a 128-byte allocation per
    /// item instead of 144).
    private let pathGeometry: PathGeometry?
    /// The collision geometry in the item's frame.
    var geometry: ConvexGeometry { pathGeometry?.geometry ?? ConvexGeometry.primitive(shape, size: size) }
    /// How many vertices `geometry` has (without building it).
    var vertexCount: Int {
        switch shape {
        case .rectangle: return 4
        case .ellipse: return size.x == size.y ? 1 : 24
        case .path: return pathGeometry?.geometry.vertices.count ?? 0
        }
    }
    /// The group this item belongs to, if any (an item joins at most one).
    weak var group: DynamicItemGroup?

    /// Makes an item; throws when the size is not positive or a path is not convex.
    public init(identifier: String, center: Vector2, size: Vector2, angle: Double = 0, shape: ItemShape = .rectangle) throws(DynamicsError) {
        guard size.x > 0, size.y > 0, size.isFinite else { throw .invalidSize(identifier) }
        self.identifier = identifier
        self.center = center
        self.size = size
        self.angle = angle
        self.shape = shape
        if case .path = shape {
            do {
                self.pathGeometry = PathGeometry(geometry: try ConvexGeometry.make(shape, size: size))
            } catch {
                throw .invalidShape(identifier, error)
            }
        } else {
            self.pathGeometry = nil
        }
    }

    /// The axis-aligned box around the collision outline at the current centre and angle (UIKit's
    /// `frame` of a turned view): exact for circles and polygons, through the ellipse's 24-gon.
    public var frame: Rect {
        let q = Rotation(angle: angle), geometry = self.geometry
        var lo = Vector2(Double.infinity, Double.infinity), hi = Vector2(-Double.infinity, -Double.infinity)
        for v in geometry.vertices {
            let p = center + q.rotate(v)
            lo = Vector2(min(lo.x, p.x - geometry.radius), min(lo.y, p.y - geometry.radius))
            hi = Vector2(max(hi.x, p.x + geometry.radius), max(hi.y, p.y + geometry.radius))
        }
        return Rect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    }

    /// The outline in reference coordinates at the current centre and angle (for drawing).
    public var outline: [Vector2] {
        let q = Rotation(angle: angle), geometry = self.geometry
        if geometry.vertices.count == 1 {
            return (0..<32).map { k in
                let sc = DeterministicMath.sinCos(2 * Double.pi * Double(k) / 32)
                return center + q.rotate(Vector2(geometry.radius * sc.cos, geometry.radius * sc.sin))
            }
        }
        return geometry.vertices.map { center + q.rotate($0) }
    }
}

/// Errors from building items and behaviors through the Swift API.
public enum DynamicsError: Error, CustomStringConvertible, Equatable {
    /// A size that is zero, negative or not finite.
    case invalidSize(String)
    /// A collision path that is not a convex polygon.
    case invalidShape(String, ShapeError)
    /// A group that is empty, repeats an item, holds a group or takes an item of another group.
    case invalidGroup(String, String)

    /// The one-line message the CLI prints.
    public var description: String {
        switch self {
        case .invalidSize(let id): return "item \(id): size must be positive and finite"
        case .invalidShape(let id, let error): return "item \(id): \(error)"
        case .invalidGroup(let id, let reason): return "group \(id): \(reason)"
        }
    }
}
