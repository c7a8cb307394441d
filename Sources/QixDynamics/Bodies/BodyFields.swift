internal import CContactKernel

/// Where the C code of the step's placements (`BoxPlacement`, `BodyPlacement`) finds the fields
/// of a `Body` record: byte offsets from `MemoryLayout`, so that it assumes no Swift layout.
enum BodyFields {
    /// The offsets and stride, or nil if a field has no fixed offset (or a rotation is not the
    /// (c, s) pair of doubles the C code reads).
    static let layout: QixBodyFields? = {
        let offsets = [
            MemoryLayout.offset(of: \Body.origin), MemoryLayout.offset(of: \Body.q),
            MemoryLayout.offset(of: \Body.center), MemoryLayout.offset(of: \Body.lower),
            MemoryLayout.offset(of: \Body.upper), MemoryLayout.offset(of: \Body.localCenter),
            MemoryLayout.offset(of: \Body.center0), MemoryLayout.offset(of: \Body.force),
            MemoryLayout.offset(of: \Body.angle), MemoryLayout.offset(of: \Body.angle0),
            MemoryLayout.offset(of: \Body.torque), MemoryLayout.offset(of: \Body.radius),
            MemoryLayout.offset(of: \Body.invMass), MemoryLayout.offset(of: \Body.itemMask),
            MemoryLayout.offset(of: \Body.shapeStart32), MemoryLayout.offset(of: \Body.shapeCount32),
            MemoryLayout.offset(of: \Body.placedStart32), MemoryLayout.offset(of: \Body.isBoundary),
        ].compactMap { $0 }
        guard offsets.count == 18, MemoryLayout<Rotation>.size == 16, MemoryLayout.offset(of: \Rotation.s) == 8,
              MemoryLayout<Vector2>.size == 16, MemoryLayout.offset(of: \Vector2.y) == 8, MemoryLayout<Bool>.size == 1
        else { return nil }
        return QixBodyFields(stride: MemoryLayout<Body>.stride, origin: offsets[0], rotation: offsets[1],
                             center: offsets[2], lower: offsets[3], upper: offsets[4], localCenter: offsets[5],
                             center0: offsets[6], force: offsets[7], angle: offsets[8], angle0: offsets[9],
                             torque: offsets[10], radius: offsets[11], invMass: offsets[12], itemMask: offsets[13],
                             shapeStart: offsets[14], shapeCount: offsets[15], placedStart: offsets[16],
                             isBoundary: offsets[17])
    }()
}
