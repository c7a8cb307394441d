// Which batches the restitution pass must look at, in C, for QixDynamics (ContactSolver.swift,
// BounceCandidates.swift): `ContactSolver.restitution`'s per-batch test, the four lanes of a
// batch in one vector, with the same comparisons, so the same batches (docs/determinism.md,
// rule 9).
#ifndef C_BOUNCE_CANDIDATES_H
#define C_BOUNCE_CANDIDATES_H

#include <stddef.h>
#include <stdint.h>

// The batch records (CContactKernel.h) by their tags: CContactKernel.h includes this header.
struct QixBatchBounce;
struct QixBatchSolve;
struct QixContactBatch;

/// Writes to `out` the indices of the batches among `count` where a lane may bounce: its
/// restitution is not zero, and a point (the second only where the lane has one) did not
/// separate faster than `threshold` (relative normal velocity not above it; NaN counts as
/// not above) and pushed during the step (max normal impulse not zero). Returns how many.
typedef ptrdiff_t (*QixBounceCandidatesFunction)(const struct QixBatchBounce *bounces,
                                                 const struct QixBatchSolve *solve,
                                                 const struct QixContactBatch *batches, ptrdiff_t count,
                                                 double threshold, int32_t *out);

/// The test compiled for baseline x86-64 (or for the target elsewhere).
ptrdiff_t qix_bounce_candidates_portable(const struct QixBatchBounce *bounces, const struct QixBatchSolve *solve,
                                         const struct QixContactBatch *batches, ptrdiff_t count, double threshold,
                                         int32_t *out);

/// The same compiled for AVX2 (x86-64 only; elsewhere the portable code). Call it only when
/// `qix_contact_avx2_supported()` says so.
ptrdiff_t qix_bounce_candidates_avx2(const struct QixBatchBounce *bounces, const struct QixBatchSolve *solve,
                                     const struct QixContactBatch *batches, ptrdiff_t count, double threshold,
                                     int32_t *out);

#endif
