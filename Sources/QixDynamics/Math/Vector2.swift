/// A 2D vector in points (or points per second): positions, offsets, velocities and forces.
/// y grows downward, as in UIKit. Two `Double`s, `BitwiseCopyable`, so that the step's buffers
/// of vectors are sized without a fill they would overwrite.
public struct Vector2: Hashable, Sendable, CustomStringConvertible, BitwiseCopyable {
    /// Horizontal component.
    public var x: Double
    /// Vertical component (positive is down).
    public var y: Double

    /// Makes a vector from its components.
    @inlinable public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    /// The zero vector.
    public static let zero = Vector2(0, 0)

    /// Component-wise sum.
    @inlinable public static func + (a: Vector2, b: Vector2) -> Vector2 { Vector2(a.x + b.x, a.y + b.y) }
    /// Component-wise difference.
    @inlinable public static func - (a: Vector2, b: Vector2) -> Vector2 { Vector2(a.x - b.x, a.y - b.y) }
    /// Negation.
    @inlinable public static prefix func - (a: Vector2) -> Vector2 { Vector2(-a.x, -a.y) }
    /// Scaling by a number.
    @inlinable public static func * (s: Double, a: Vector2) -> Vector2 { Vector2(s * a.x, s * a.y) }
    /// Scaling by a number.
    @inlinable public static func * (a: Vector2, s: Double) -> Vector2 { Vector2(s * a.x, s * a.y) }
    /// In-place sum.
    @inlinable public static func += (a: inout Vector2, b: Vector2) { a = a + b }
    /// In-place difference.
    @inlinable public static func -= (a: inout Vector2, b: Vector2) { a = a - b }

    /// Dot product.
    @inlinable public func dot(_ b: Vector2) -> Double { x * b.x + y * b.y }
    /// 2D cross product (z of the 3D cross product).
    @inlinable public func cross(_ b: Vector2) -> Double { x * b.y - y * b.x }
    /// Squared length.
    @inlinable public var lengthSquared: Double { x * x + y * y }
    /// Length (IEEE square root: correctly rounded, so deterministic).
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }
    /// The vector turned by +90 degrees in the maths sense: (-y, x).
    @inlinable public var leftPerpendicular: Vector2 { Vector2(-y, x) }
    /// The vector turned by -90 degrees in the maths sense: (y, -x).
    @inlinable public var rightPerpendicular: Vector2 { Vector2(y, -x) }

    /// The unit vector in the same direction, or zero for a (nearly) zero vector.
    @inlinable public var normalized: Vector2 {
        let l = length
        if l < 1e-300 { return .zero }
        let inv = 1 / l
        return Vector2(x * inv, y * inv)
    }

    /// True when both components are finite.
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }

    /// `(x, y)`.
    public var description: String { "(\(x), \(y))" }
}

/// Scalar times the perpendicular of a vector: the velocity of a point at `r` on a body spinning at `w`.
@inlinable func crossSV(_ w: Double, _ r: Vector2) -> Vector2 { Vector2(-w * r.y, w * r.x) }
