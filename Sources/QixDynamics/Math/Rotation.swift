/// A rotation stored as its cosine and sine, so that turning vectors needs no trigonometry.
public struct Rotation: Hashable, Sendable {
    /// Cosine of the angle.
    public var c: Double
    /// Sine of the angle.
    public var s: Double

    /// The identity rotation.
    public static let identity = Rotation(c: 1, s: 0)

    /// A rotation from its cosine and sine.
    @inlinable public init(c: Double, s: Double) {
        self.c = c
        self.s = s
    }

    /// The rotation by `angle` radians (deterministic sine and cosine).
    @inlinable public init(angle: Double) {
        let sc = DeterministicMath.sinCos(angle)
        self.c = sc.cos
        self.s = sc.sin
    }

    /// Turns a vector by this rotation.
    @inlinable public func rotate(_ v: Vector2) -> Vector2 { Vector2(c * v.x - s * v.y, s * v.x + c * v.y) }
    /// Turns a vector by the inverse of this rotation.
    @inlinable public func inverseRotate(_ v: Vector2) -> Vector2 { Vector2(c * v.x + s * v.y, -s * v.x + c * v.y) }
}

/// A rigid placement: a rotation then a translation.
struct Transform {
    var p: Vector2
    var q: Rotation

    @inline(__always) func apply(_ v: Vector2) -> Vector2 { q.rotate(v) + p }
    @inline(__always) func inverseApply(_ v: Vector2) -> Vector2 { q.inverseRotate(v - p) }
}
