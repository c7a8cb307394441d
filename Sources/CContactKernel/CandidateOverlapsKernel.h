// `EmittedPairs.recordOverlaps`, included once per build by CandidateOverlaps.c with `K(name)`
// giving the names their suffix. A candidate's boxes are apart when one of
// (upperA.x, upperA.y, upperB.x, upperB.y) < (lowerB.x, lowerB.y, lowerA.x, lowerA.y), lane by
// lane: the four comparisons of `BroadPhase.apart` (whose `||` only stops early; NaN compares
// false in both). Do not change a comparison here without doing the same in BroadPhase.swift
// (docs/determinism.md rule 9).

static inline __attribute__((always_inline)) d2 K(point)(const double *p) {
    d2 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/// Whether candidate (a, b)'s boxes overlap: 1 or 0.
static inline __attribute__((always_inline)) uint64_t K(overlaps)(const double *lower, const double *upper, int32_t a,
                                                                  int32_t b) {
    d2 upperA = K(point)(upper + 2 * (ptrdiff_t)a), upperB = K(point)(upper + 2 * (ptrdiff_t)b);
    d2 lowerA = K(point)(lower + 2 * (ptrdiff_t)a), lowerB = K(point)(lower + 2 * (ptrdiff_t)b);
    d4 ends = __builtin_shufflevector(upperA, upperB, 0, 1, 2, 3);
    d4 starts = __builtin_shufflevector(lowerB, lowerA, 0, 1, 2, 3);
    m4 apart = ends < starts;
    return (apart[0] | apart[1] | apart[2] | apart[3]) == 0;
}

int32_t K(qix_candidate_overlaps)(const int32_t *candidates, ptrdiff_t total, const double *lower, const double *upper,
                                  uint64_t *bits, uint64_t *changes) {
    int32_t same = 1;
    for (ptrdiff_t first = 0; first < total; first += 64) {
        ptrdiff_t end = total - first < 64 ? total : first + 64;
        uint64_t word = 0;
        for (ptrdiff_t g = first; g < end; g++) {
            word |= K(overlaps)(lower, upper, candidates[2 * g], candidates[2 * g + 1]) << (g - first);
        }
        ptrdiff_t w = first >> 6;
        changes[w] = word ^ bits[w];
        if (word != bits[w]) {
            same = 0;
            bits[w] = word;
        }
    }
    return same;
}
