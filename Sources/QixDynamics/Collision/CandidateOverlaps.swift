internal import CContactKernel

/// Which of the broad phase's kept candidates overlap, in C (`qix_candidate_overlaps`,
/// Sources/CContactKernel/include/CandidateOverlaps.h): `BroadPhase.apart`'s four comparisons of
/// a candidate in the lanes of one vector, so the same bits. The Swift loop spent about 34
/// instructions a candidate (its `||` a branch each). The Swift loop stays the reference
/// (`EmittedPairs.recordOverlaps` with `.swift`).
enum CandidateOverlaps {
    /// Records the overlaps as `EmittedPairs.recordOverlaps` does (`bits` and `changes`: a word
    /// per 64 candidates) with `kernel`'s C build and returns whether no word changed, or returns
    /// nil (recording nothing) for the Swift kernel or when the records do not line up.
    static func record(kernel: ContactKernel, _ candidates: UnsafePointer<SIMD2<Int32>>, total: Int,
                       lower: UnsafePointer<Vector2>, upper: UnsafePointer<Vector2>, bits: UnsafeMutablePointer<UInt64>,
                       changes: UnsafeMutablePointer<UInt64>) -> Bool? {
        guard MemoryLayout<SIMD2<Int32>>.stride == 8, MemoryLayout<Vector2>.stride == 16,
              let function = kernel.build(portable: qix_candidate_overlaps_portable, avx2: qix_candidate_overlaps_avx2)
        else { return nil }
        return function(UnsafeRawPointer(candidates).assumingMemoryBound(to: Int32.self), total,
                        UnsafeRawPointer(lower).assumingMemoryBound(to: Double.self),
                        UnsafeRawPointer(upper).assumingMemoryBound(to: Double.self), bits, changes) != 0
    }
}
