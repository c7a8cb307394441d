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
