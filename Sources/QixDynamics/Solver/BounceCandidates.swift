internal import CContactKernel

/// Which batches the restitution pass must look at, picked in C (`qix_bounce_candidates`,
/// Sources/CContactKernel/include/BounceCandidates.h): `ContactSolver.restitution`'s test of a
/// batch with the four lanes in one vector, the same comparisons, so the same batches. The
/// Swift masks cost about 69 instructions a batch (widening, comparing and packing lanes),
/// most batches of a scene at rest bounce nowhere, and the test in C costs about 20. The
/// restitution pass then repeats the Swift test on the batches picked, so it stays the reference.
enum BounceCandidates {
    /// Writes the indices of the batches that may bounce to `out` (room for every batch) with
    /// `kernel`'s C build and returns how many, or returns nil (writing nothing) for the Swift
    /// kernel or when the records do not line up.
    static func find(kernel: ContactKernel, _ bounces: UnsafeBufferPointer<BatchBounce>,
                     _ solve: UnsafeMutableBufferPointer<BatchSolve>,
                     _ batches: UnsafeMutableBufferPointer<ContactBatch>, threshold: Double,
                     into out: UnsafeMutablePointer<Int32>) -> Int? {
        guard let b = bounces.baseAddress, let s = solve.baseAddress, let c = batches.baseAddress,
              let function = kernel.build(portable: qix_bounce_candidates_portable, avx2: qix_bounce_candidates_avx2)
        else { return nil }
        return function(UnsafeRawPointer(b).assumingMemoryBound(to: QixBatchBounce.self),
                        UnsafeRawPointer(s).assumingMemoryBound(to: QixBatchSolve.self),
                        UnsafeRawPointer(c).assumingMemoryBound(to: QixContactBatch.self), batches.count, threshold,
                        out)
    }
}
