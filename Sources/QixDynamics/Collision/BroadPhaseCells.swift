internal import CContactKernel

/// The broad phase's boxes and grid cells in C (`qix_broad_phase_cells`,
/// Sources/CContactKernel/include/BroadPhaseCells.h): `BroadPhase.cell` of an item's four
/// box coordinates in the lanes of one vector, the same operations, so the same cells. The
/// Swift loop spent about 107 instructions an item (each cell's conversion checked for traps
/// the clamp already rules out). The Swift loop stays the reference (`BroadPhase.fillCells`).
enum BroadPhaseCells {
    /// Fills `out` as `BroadPhase.fillCells` does with `kernel`'s C build and returns true, or
    /// returns false (filling nothing) for the Swift kernel or when the records do not line up.
    static func fill(
        kernel: ContactKernel, bodies: UnsafeMutablePointer<Body>, items: UnsafeBufferPointer<Int32>, invCell: Double,
        into out: (lower: UnsafeMutablePointer<Vector2>, upper: UnsafeMutablePointer<Vector2>,
                   low: UnsafeMutablePointer<SIMD2<Int32>>, high: UnsafeMutablePointer<SIMD2<Int32>>)
    ) -> Bool {
        guard var fields = BodyFields.layout, MemoryLayout<SIMD2<Int32>>.stride == 8,
              let function = kernel.build(portable: qix_broad_phase_cells_portable, avx2: qix_broad_phase_cells_avx2)
        else { return false }
        function(UnsafeRawPointer(bodies).assumingMemoryBound(to: CChar.self), &fields, items.baseAddress, items.count,
                 invCell, UnsafeMutableRawPointer(out.lower).assumingMemoryBound(to: Double.self),
                 UnsafeMutableRawPointer(out.upper).assumingMemoryBound(to: Double.self),
                 UnsafeMutableRawPointer(out.low).assumingMemoryBound(to: Int32.self),
                 UnsafeMutableRawPointer(out.high).assumingMemoryBound(to: Int32.self))
        return true
    }
}
