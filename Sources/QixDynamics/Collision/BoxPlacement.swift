internal import CContactKernel

/// The step's placement of items with four vertices in C (`qix_place_boxes`,
/// Sources/CContactKernel/include/BoxPlacement.h): the shape turned and moved into the world, the
/// bounding box and the collider, with the operations of `World.placeShapes` in the same order,
/// so the same bits. The Swift loop spent about 220 instructions a box (a scalar loop over the
/// vertices with a select per bound); two points to a vector, about 105 (base-20 pyramid). The Swift code stays the
/// reference and places every other shape.
enum BoxPlacement {
    /// Where the C code finds the `Body` fields it reads and writes; nil if one has no offset.
    private static let fields: QixBodyFields? = {
        let offsets = [
            MemoryLayout.offset(of: \Body.origin), MemoryLayout.offset(of: \Body.q),
            MemoryLayout.offset(of: \Body.center), MemoryLayout.offset(of: \Body.lower),
            MemoryLayout.offset(of: \Body.upper), MemoryLayout.offset(of: \Body.radius),
            MemoryLayout.offset(of: \Body.invMass), MemoryLayout.offset(of: \Body.itemMask),
            MemoryLayout.offset(of: \Body.shapeStart32), MemoryLayout.offset(of: \Body.shapeCount32),
            MemoryLayout.offset(of: \Body.placedStart32), MemoryLayout.offset(of: \Body.isBoundary),
        ].compactMap { $0 }
        guard offsets.count == 12, MemoryLayout<Rotation>.size == 16, MemoryLayout.offset(of: \Rotation.s) == 8 else {
            return nil
        }
        return QixBodyFields(stride: MemoryLayout<Body>.stride, origin: offsets[0], rotation: offsets[1],
                             center: offsets[2], lower: offsets[3], upper: offsets[4], radius: offsets[5],
                             invMass: offsets[6], itemMask: offsets[7], shapeStart: offsets[8],
                             shapeCount: offsets[9], placedStart: offsets[10], isBoundary: offsets[11])
    }()

    /// The C build for `kernel` (the narrow phase's, so that tests comparing narrow phases
    /// compare the placements too), or nil for the Swift kernel or when the records do not line
    /// up (`BoxContacts.layoutMatches` covers `Collider` and `Vector2`).
    private static func function(for kernel: ContactKernel) -> QixBoxPlacementFunction? {
        guard kernel.isAvailable, BoxContacts.layoutMatches, fields != nil else { return nil }
        switch kernel {
        case .swift: return nil
        case .portable: return qix_place_boxes_portable
        case .avx2, .avx512: return qix_place_boxes_avx2
        }
    }

    /// Places the `items` with four vertices with `kernel`'s C build and returns true, or
    /// returns false (placing nothing) when it has none.
    static func place(
        items: [Int32], kernel: ContactKernel, _ bodies: UnsafeMutablePointer<Body>, _ vertices: UnsafePointer<Vector2>,
        _ normals: UnsafePointer<Vector2>,
        into out: (vertices: UnsafeMutablePointer<Vector2>, normals: UnsafeMutablePointer<Vector2>,
                   colliders: UnsafeMutablePointer<Collider>)
    ) -> Bool {
        guard let function = function(for: kernel), var fields else { return false }
        items.withUnsafeBufferPointer { ip in
            function(UnsafeMutableRawPointer(bodies).assumingMemoryBound(to: CChar.self), &fields, ip.baseAddress,
                     ip.count, UnsafeRawPointer(vertices).assumingMemoryBound(to: Double.self),
                     UnsafeRawPointer(normals).assumingMemoryBound(to: Double.self),
                     UnsafeMutableRawPointer(out.vertices).assumingMemoryBound(to: Double.self),
                     UnsafeMutableRawPointer(out.normals).assumingMemoryBound(to: Double.self),
                     PhysicsConstants.speculativeDistance,
                     UnsafeMutableRawPointer(out.colliders).assumingMemoryBound(to: QixCollider.self))
        }
        return true
    }
}
