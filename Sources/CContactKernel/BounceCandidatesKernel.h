// `ContactSolver.restitution`'s test of a batch, included once per build by BounceCandidates.c
// with `K(name)` giving the names their suffix. Per lane, as the Swift code's masks:
//     bouncy  = widen(restitution) != 0
//     bounce1 = bouncy & !(widen(relativeVelocity1) > threshold) & (p1.maxNormalImpulse != 0)
//     bounce2 = bouncy & hasP2 & !(widen(relativeVelocity2) > threshold) & (p2.maxNormalImpulse != 0)
// and the batch is a candidate when some lane has bounce1 or bounce2. Do not change a
// comparison here without doing the same in ContactSolver.swift (docs/determinism.md rule 9).

static inline __attribute__((always_inline)) d4 K(widen)(const float *p) {
    f4 v;
    memcpy(&v, p, sizeof v);
    return __builtin_convertvector(v, d4);
}

static inline __attribute__((always_inline)) d4 K(lanes)(const double *p) {
    d4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

ptrdiff_t K(qix_bounce_candidates)(const QixBatchBounce *bounces, const QixBatchSolve *solve,
                                   const QixContactBatch *batches, ptrdiff_t count, double threshold, int32_t *out) {
    const d4 zero = (d4)(0.0), limit = (d4)(threshold);
    ptrdiff_t found = 0;
    for (ptrdiff_t n = 0; n < count; n++) {
        m4 bouncy = K(widen)(bounces[n].restitution) != zero;
        m4 bounce1 = bouncy & ~(K(widen)(bounces[n].relativeVelocity1) > limit)
                     & (K(lanes)(solve[n].p1.maxNormalImpulse) != zero);
        m4 hasP2;
        memcpy(&hasP2, batches[n].hasP2, sizeof hasP2);
        m4 bounce2 = bouncy & hasP2 & ~(K(widen)(bounces[n].relativeVelocity2) > limit)
                     & (K(lanes)(solve[n].p2.maxNormalImpulse) != zero);
        m4 any = bounce1 | bounce2;
        out[found] = (int32_t)n;
        found += (any[0] | any[1] | any[2] | any[3]) != 0;
    }
    return found;
}
