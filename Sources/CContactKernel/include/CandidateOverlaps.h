// Which of the broad phase's kept candidate pairs overlap, in C, for QixDynamics
// (EmittedPairs.swift, CandidateOverlaps.swift): `EmittedPairs.recordOverlaps`' test of every
// candidate (`BroadPhase.apart`), the four comparisons of a pair in the lanes of one vector,
// so the same bits (docs/determinism.md, rule 9).
#ifndef C_CANDIDATE_OVERLAPS_H
#define C_CANDIDATE_OVERLAPS_H

#include <stddef.h>
#include <stdint.h>

/// For each candidate g of `candidates[0..<total]` (two item positions a pair, into `lower`
/// and `upper`, (x, y) pairs): bit g % 64 of word g / 64 is set when its boxes overlap (none of
/// upperA.x < lowerB.x, upperB.x < lowerA.x, upperA.y < lowerB.y, upperB.y < lowerA.y; NaN
/// compares false). Each word's difference from `bits` goes to `changes`, and the word to
/// `bits`. Returns 1 when no word differed, else 0.
typedef int32_t (*QixCandidateOverlapsFunction)(const int32_t *candidates, ptrdiff_t total, const double *lower,
                                                const double *upper, uint64_t *bits, uint64_t *changes);

/// The overlaps compiled for baseline x86-64 (or for the target elsewhere).
int32_t qix_candidate_overlaps_portable(const int32_t *candidates, ptrdiff_t total, const double *lower,
                                        const double *upper, uint64_t *bits, uint64_t *changes);

/// The same compiled for AVX2 (x86-64 only; elsewhere the portable code). Call it only when
/// `qix_contact_avx2_supported()` says so.
int32_t qix_candidate_overlaps_avx2(const int32_t *candidates, ptrdiff_t total, const double *lower,
                                    const double *upper, uint64_t *bits, uint64_t *changes);

#endif
