/// What the narrow phase reads of a body, in one 48-byte record per body (copied from `Body`
/// for the step by `World.updateBounds`): the pair loop reads one cache line per body instead of
/// several lines of the larger `Body`.
struct Collider {
    var center = Vector2.zero
    var invMass = 0.0
    var itemMask: UInt64 = 0
    /// Where the body's placed shape sits in the world's placed vertex arrays (`Body.placedStart`).
    var shapeStart: Int32 = 0
    var shapeCount: Int32 = 0
    var isBoundary = false
    /// Whether the placed shape is a rectangle (`Collide.isBox` of its placed normals): its
    /// pairs with other rectangles go to the C box manifolds.
    var isRectangle = false

    init() {}

    /// The collider of `body` as it stands (`isRectangle` from its placed normals).
    @inline(__always)
    init(_ body: Body, placedNormals: UnsafePointer<Vector2>?) {
        center = body.center
        invMass = body.invMass
        itemMask = body.itemMask
        shapeStart = body.placedStart32
        shapeCount = Int32(truncatingIfNeeded: body.shapeCount)
        isBoundary = body.isBoundary
        if body.shapeCount == 4, let placedNormals { isRectangle = Collide.isBox(placedNormals + body.placedStart) }
    }
}
