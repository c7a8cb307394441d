internal import CContactKernel

/// The step's placement of items with four vertices in C (`qix_place_boxes`,
/// Sources/CContactKernel/include/BoxPlacement.h): the shape turned and moved into the world, the
/// bounding box and the collider, with the operations of `World.placeShapes` in the same order,
/// so the same bits. The Swift loop spent about 220 instructions a box (a scalar loop over the
/// vertices with a select per bound); two points to a vector, about 105 (base-20 pyramid). The
/// Swift code stays the reference and places every other shape.
enum BoxPlacement {
    /// The C build for `kernel` (the narrow phase's, so that tests comparing narrow phases
    /// compare the placements too), or nil for the Swift kernel or when the records do not line
    /// up (`BoxContacts.layoutMatches` covers `Collider` and `Vector2`).
    private static func function(for kernel: ContactKernel) -> QixBoxPlacementFunction? {
        guard BoxContacts.layoutMatches, BodyFields.layout != nil else { return nil }
        return kernel.build(portable: qix_place_boxes_portable, avx2: qix_place_boxes_avx2)
    }

    /// Places the `items` with four vertices with `kernel`'s C build and returns true, or
    /// returns false (placing nothing) when it has none.
    static func place(
        items: [Int32], kernel: ContactKernel, _ bodies: UnsafeMutablePointer<Body>, _ vertices: UnsafePointer<Vector2>,
        _ normals: UnsafePointer<Vector2>,
        into out: (vertices: UnsafeMutablePointer<Vector2>, normals: UnsafeMutablePointer<Vector2>,
                   colliders: UnsafeMutablePointer<Collider>)
    ) -> Bool {
        guard let function = function(for: kernel), var fields = BodyFields.layout else { return false }
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
