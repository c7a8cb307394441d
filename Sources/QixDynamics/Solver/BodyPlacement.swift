internal import CContactKernel

/// The step's placements of the moving items in C (`qix_finalize_placements`,
/// Sources/CContactKernel/include/BodyPlacement.h): the operations of `World.finalizePlacements`
/// and `DeterministicMath.sinCos` in the same order, four bodies at a time in lanes, so the same
/// bits. The Swift loop spent about 130 instructions a turning body, 85 of them in `sinCos`. The
/// Swift code stays the reference (and runs with the Swift contact kernel, so the tests that
/// compare kernels compare these too).
enum BodyPlacement {
    /// The C build for `kernel` (the contact solver's), or nil for the Swift kernel or when the
    /// records do not line up.
    private static func function(for kernel: ContactKernel) -> QixBodyPlacementFunction? {
        guard BodyFields.layout != nil else { return nil }
        return kernel.build(portable: qix_finalize_placements_portable, avx2: qix_finalize_placements_avx2)
    }

    /// Places the moving `items` with `kernel`'s C build and returns true, or returns false
    /// (placing nothing) when it has none.
    static func place(items: [Int32], kernel: ContactKernel, _ bodies: UnsafeMutablePointer<Body>,
                      _ states: UnsafePointer<BodyState>) -> Bool {
        guard let function = function(for: kernel), var fields = BodyFields.layout else { return false }
        items.withUnsafeBufferPointer { ip in
            function(UnsafeMutableRawPointer(bodies).assumingMemoryBound(to: CChar.self), &fields, ip.baseAddress,
                     ip.count, UnsafeRawPointer(states).assumingMemoryBound(to: QixBodyState.self))
        }
        return true
    }
}
