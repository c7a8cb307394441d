// The solve/relax pass and the warm start, included twice by ContactKernel.c: once for baseline x86-64 and once
// inside `#pragma clang attribute push(target("avx2"))`, each time with `K(name)` giving the
// names their own suffix. It is a transcription of ContactSolver+Lanes.swift: the same IEEE
// operations (+, -, *, compares, selects) in the same order on the same operands, so both
// builds and the Swift kernel give identical bits (docs/determinism.md). Do not reorder,
// factor or "simplify" an expression here without doing the same in the Swift kernel.

/// A lane mask from a record's 64-bit lanes.
static inline __attribute__((always_inline)) m4 K(ldm)(const int64_t *p) {
    m4 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

/// Four lanes from a record (records are 16-byte aligned, so unaligned loads).
static inline __attribute__((always_inline)) d4 K(ld)(const double *p) {
    d4 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

static inline __attribute__((always_inline)) void K(st)(double *p, d4 v) { __builtin_memcpy(p, &v, sizeof v); }

/// Four stored 32-bit lanes (`NarrowLanes`), widened exactly to doubles.
static inline __attribute__((always_inline)) d4 K(ldf)(const float *p) {
    f4 v;
    __builtin_memcpy(&v, p, sizeof v);
    return __builtin_convertvector(v, d4);
}

/// Stores four lanes rounded to the nearest 32-bit float (Swift's `Float(x)`).
static inline __attribute__((always_inline)) void K(stf)(float *p, d4 v) {
    f4 n = __builtin_convertvector(v, f4);
    __builtin_memcpy(p, &n, sizeof n);
}

static inline __attribute__((always_inline)) d2 K(ld2)(const double *p) {
    d2 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

static inline __attribute__((always_inline)) void K(st2)(double *p, d2 v) { __builtin_memcpy(p, &v, sizeof v); }

/// `m ? a : b` lane by lane, as bits (exact: no arithmetic).
static inline __attribute__((always_inline)) d4 K(sel)(m4 m, d4 a, d4 b) {
    return (d4)((m & (m4)a) | (~m & (m4)b));
}

/// Swift's prefix minus on a lane vector, which the standard library defines as `0 - x`: the
/// same as negation except that +0 gives +0 (not -0). Every `-x` of the Swift kernel's lanes
/// is this; negating the sign bit would give different zeros.
static inline __attribute__((always_inline)) d4 K(neg)(d4 x) { return (d4)(0.0) - x; }

/// Swift's `laneMax(x, y)`: `x > y ? x : y` (x86 `maxpd x, y` exactly, NaNs and zeros included).
static inline __attribute__((always_inline)) d4 K(max)(d4 x, d4 y) { return K(sel)(x > y, x, y); }

/// Swift's `laneMin(x, y)`: `y < x ? y : x` (x86 `minpd y, x`).
static inline __attribute__((always_inline)) d4 K(min)(d4 x, d4 y) { return K(sel)(y < x, y, x); }

/// Two doubles of each of four records at the same offset, transposed: lanes of the first
/// and of the second double.
static inline __attribute__((always_inline)) void K(gather2)(const double *p0, const double *p1, const double *p2,
                                                            const double *p3, d4 *first, d4 *second) {
    d2 a0 = K(ld2)(p0), a1 = K(ld2)(p1), a2 = K(ld2)(p2), a3 = K(ld2)(p3);
    d4 t0 = __builtin_shufflevector(a0, a2, 0, 1, 2, 3);
    d4 t1 = __builtin_shufflevector(a1, a3, 0, 1, 2, 3);
    *first = __builtin_shufflevector(t0, t1, 0, 4, 2, 6);
    *second = __builtin_shufflevector(t0, t1, 1, 5, 3, 7);
}

/// Velocities (`LaneBodies`) or displacements (`LaneDisplacements`) of one side of a batch.
typedef struct {
    d4 vx, vy, w;
} K(Bodies);

typedef struct {
    d4 dx, dy, c, s;
} K(Moves);

static inline __attribute__((always_inline)) K(Bodies) K(load_bodies)(QixBodyState *s, const int32_t *index) {
    QixBodyState *s0 = s + index[0], *s1 = s + index[1], *s2 = s + index[2], *s3 = s + index[3];
    K(Bodies) b;
    K(gather2)(&s0->vx, &s1->vx, &s2->vx, &s3->vx, &b.vx, &b.vy);
    b.w = (d4){s0->w, s1->w, s2->w, s3->w};
    return b;
}

static inline __attribute__((always_inline)) K(Moves) K(load_moves)(const QixBodyState *s, const int32_t *index) {
    const QixBodyState *s0 = s + index[0], *s1 = s + index[1], *s2 = s + index[2], *s3 = s + index[3];
    K(Moves) m;
    K(gather2)(&s0->dpx, &s1->dpx, &s2->dpx, &s3->dpx, &m.dx, &m.dy);
    K(gather2)(&s0->dqc, &s1->dqc, &s2->dqc, &s3->dqc, &m.c, &m.s);
    return m;
}

/// Writes the velocities back to the bodies that can move (inverse mass > 0).
static inline __attribute__((always_inline)) void K(store_bodies)(K(Bodies) b, QixBodyState *s, const int32_t *index,
                                                                 d4 invMass) {
    d4 even = __builtin_shufflevector(b.vx, b.vy, 0, 4, 2, 6);  // vx0 vy0 vx2 vy2
    d4 odd = __builtin_shufflevector(b.vx, b.vy, 1, 5, 3, 7);   // vx1 vy1 vx3 vy3
    if (invMass[0] > 0) {
        QixBodyState *t = s + index[0];
        K(st2)(&t->vx, even.lo);
        t->w = b.w[0];
    }
    if (invMass[1] > 0) {
        QixBodyState *t = s + index[1];
        K(st2)(&t->vx, odd.lo);
        t->w = b.w[1];
    }
    if (invMass[2] > 0) {
        QixBodyState *t = s + index[2];
        K(st2)(&t->vx, even.hi);
        t->w = b.w[2];
    }
    if (invMass[3] > 0) {
        QixBodyState *t = s + index[3];
        K(st2)(&t->vx, odd.hi);
        t->w = b.w[3];
    }
}

/// `ContactSolver.Masses`: inverse masses and inverse mass times normal.
typedef struct {
    d4 mA, iA, mB, iB;
    d4 mAnx, mAny, mBnx, mBny;
} K(Masses);

/// The inverse masses and inertias of the indexed bodies (`masses`: two doubles a body),
/// transposed into lanes.
static inline __attribute__((always_inline)) void K(load_masses)(const double *masses, const int32_t *index, d4 *m,
                                                                d4 *i) {
    K(gather2)(masses + 2 * index[0], masses + 2 * index[1], masses + 2 * index[2], masses + 2 * index[3], m, i);
}

/// `ContactSolver.PointArms`: lever arms and inverse inertia times arm.
typedef struct {
    d4 nA, nB, tA, tB;
    d4 wnA, wnB, wtA, wtB;
} K(Arms);

static inline __attribute__((always_inline)) K(Arms) K(arms)(const QixBatchPoint *p, K(Masses) m) {
    K(Arms) a;
    a.nA = K(ldf)(p->normalArmA);
    a.nB = K(ldf)(p->normalArmB);
    a.tA = K(ldf)(p->tangentArmA);
    a.tB = K(ldf)(p->tangentArmB);
    a.wnA = m.iA * a.nA;
    a.wnB = m.iB * a.nB;
    a.wtA = m.iA * a.tA;
    a.wtB = m.iB * a.tB;
    return a;
}

/// `ContactSolver.separation`.
static inline __attribute__((always_inline)) d4 K(separation)(const QixBatchPoint *p, const QixPointSolve *q,
                                                             K(Moves) dA, K(Moves) dB, d4 nx, d4 ny) {
    d4 linear = (dB.dx - dA.dx) * nx + (dB.dy - dA.dy) * ny;
    d4 angular = (dB.s * K(ldf)(p->normalArmB) - dB.c * K(ldf)(p->tangentArmB)) -
                 (dA.s * K(ldf)(p->normalArmA) - dA.c * K(ldf)(p->tangentArmA));
    return (linear + angular) + K(ld)(q->baseSeparation);
}

/// `ContactSolver.apply`: minus `j` times A's velocity change per unit impulse to A, plus `j`
/// times B's to B; lanes outside `only` get +0 subtracted and -0 added (exactly nothing).
static inline __attribute__((always_inline)) void K(apply)(d4 j, d4 a0, d4 a1, d4 a2, d4 b0, d4 b1, d4 b2,
                                                          K(Bodies) *A, K(Bodies) *B, m4 only, int masked) {
    d4 dvA0 = j * a0, dvA1 = j * a1, dvA2 = j * a2;
    d4 dvB0 = j * b0, dvB1 = j * b1, dvB2 = j * b2;
    if (masked) {
        const d4 zero = {0.0, 0.0, 0.0, 0.0}, minusZero = {-0.0, -0.0, -0.0, -0.0};
        dvA0 = K(sel)(only, dvA0, zero);
        dvA1 = K(sel)(only, dvA1, zero);
        dvA2 = K(sel)(only, dvA2, zero);
        dvB0 = K(sel)(only, dvB0, minusZero);
        dvB1 = K(sel)(only, dvB1, minusZero);
        dvB2 = K(sel)(only, dvB2, minusZero);
    }
    A->vx = A->vx - dvA0;
    A->vy = A->vy - dvA1;
    A->w = A->w - dvA2;
    B->vx = B->vx + dvB0;
    B->vy = B->vy + dvB1;
    B->w = B->w + dvB2;
}

/// `ContactSolver.normalTarget`: the soft normal impulse one point would take alone.
static inline __attribute__((always_inline)) d4 K(normal_target)(const QixBatchPoint *p, const QixPointSolve *q, d4 s,
                                                                d4 vn, K(Masses) m, const QixPassConstants *k,
                                                                int useBias) {
    const d4 zero = {0.0, 0.0, 0.0, 0.0}, one = {1.0, 1.0, 1.0, 1.0};
    m4 separated = s > zero;
    d4 bias = zero, massScale = one, impulseScale = zero;
    if (useBias) {
        m4 isStatic = (m.mA == zero) | (m.mB == zero);
        d4 biasRate = K(sel)(isStatic, (d4)(k->fixed.biasRate), (d4)(k->contact.biasRate));
        bias = K(max)(biasRate * s, (d4)(k->maxPush));
        massScale = K(sel)(isStatic, (d4)(k->fixed.massScale), (d4)(k->contact.massScale));
        impulseScale = K(sel)(isStatic, (d4)(k->fixed.impulseScale), (d4)(k->contact.impulseScale));
    }
    bias = K(sel)(separated, s * (d4)(k->invH), bias);
    massScale = K(sel)(separated, one, massScale);
    impulseScale = K(sel)(separated, zero, impulseScale);
    d4 scale = K(neg)(K(ldf)(q->normalMass)) * massScale;
    d4 relax = impulseScale * K(ld)(p->normalImpulse);
    d4 target = scale * (vn + bias) - relax;
    // The relax pass over-relaxes touching points only (speculative ones keep their exact gap).
    if (!useBias) target = K(sel)(separated, target, target * (d4)(k->overRelaxation));
    return target;
}

/// `ContactSolver.blockIncrements`: both points' normal increments from their targets.
static inline __attribute__((always_inline)) void K(block_increments)(d4 u1, d4 u2, d4 total1, d4 total2,
                                                                     const QixBatchSolve *d, d4 *j1, d4 *j2) {
    const d4 zero = {0.0, 0.0, 0.0, 0.0};
    d4 c12 = K(ldf)(d->coupling12), c21 = K(ldf)(d->coupling21), g = K(ldf)(d->blockScale);
    d4 a1 = g * (u1 - c12 * u2), a2 = g * (u2 - c21 * u1);
    m4 both = ((total1 + a1) >= zero) & ((total2 + a2) >= zero);
    d4 b2 = K(neg)(total2), b1 = u1 - c12 * b2;
    m4 only1 = ((total1 + b1) >= zero) & ((c21 * b1 + b2) >= u2);
    d4 c1 = K(neg)(total1), c2 = u2 - c21 * c1;
    m4 only2 = ((total2 + c2) >= zero) & ((c12 * c2 + c1) >= u1);
    // Neither pushes (both let go): the case left when the others fail.
    d4 r1 = c1;
    d4 r2 = K(sel)(only2, c2, b2);
    r1 = K(sel)(only1, b1, r1);
    r2 = K(sel)(only1, b2, r2);
    *j1 = K(sel)(both, a1, r1);
    *j2 = K(sel)(both, a2, r2);
}

/// `ContactSolver.applyNormalPair` (unmasked: the solve pass).
static inline __attribute__((always_inline)) void K(apply_normal_pair)(d4 j1, d4 j2, QixBatchPoint *p1,
                                                                      QixBatchPoint *p2, QixPointSolve *q1,
                                                                      QixPointSolve *q2, K(Arms) arms1, K(Arms) arms2,
                                                                      K(Bodies) *A, K(Bodies) *B, K(Masses) m) {
    K(st)(p1->normalImpulse, K(ld)(p1->normalImpulse) + j1);
    K(st)(p2->normalImpulse, K(ld)(p2->normalImpulse) + j2);
    K(st)(q1->maxNormalImpulse, K(max)(K(ld)(q1->maxNormalImpulse), j1));
    K(st)(q2->maxNormalImpulse, K(max)(K(ld)(q2->maxNormalImpulse), j2));
    d4 j = j1 + j2;
    A->vx = A->vx - j * m.mAnx;
    A->vy = A->vy - j * m.mAny;
    A->w = A->w - (j1 * arms1.wnA + j2 * arms2.wnA);
    B->vx = B->vx + j * m.mBnx;
    B->vy = B->vy + j * m.mBny;
    B->w = B->w + (j1 * arms1.wnB + j2 * arms2.wnB);
}

/// `ContactSolver.frictionPoint`.
static inline __attribute__((always_inline)) void K(friction_point)(QixBatchPoint *p, d4 tangentMass, K(Arms) arms,
                                                                   K(Bodies) *A, K(Bodies) *B, d4 nx, d4 ny,
                                                                   K(Masses) m, d4 friction, m4 only, int masked) {
    d4 vt = ((B->vx - A->vx) * ny - (B->vy - A->vy) * nx) + (B->w * arms.tB - A->w * arms.tA);
    d4 tangentImpulse = K(ld)(p->tangentImpulse);
    d4 maxFriction = friction * K(ld)(p->normalImpulse);
    d4 lower = K(neg)(maxFriction) - tangentImpulse, upper = maxFriction - tangentImpulse;
    d4 impulse = K(min)(K(max)(K(neg)(tangentMass) * vt, lower), upper);
    K(st)(p->tangentImpulse, tangentImpulse + impulse);
    // Along the tangent (ny, -nx).
    K(apply)(impulse, m.mAny, K(neg)(m.mAnx), arms.wtA, m.mBny, K(neg)(m.mBnx), arms.wtB, A, B, only, masked);
}

/// `ContactSolver.solveBatch`: both points' normal impulses together, then both friction impulses.
static inline __attribute__((always_inline)) void K(solve_batch)(QixContactBatch *c, QixBatchSolve *d,
                                                                QixBodyState *states, const QixPassConstants *k,
                                                                int useBias, int masked) {
    d4 nx = K(ldf)(c->normalX), ny = K(ldf)(c->normalY);
    K(Moves) dA = K(load_moves)(states, c->indexA), dB = K(load_moves)(states, c->indexB);
    d4 s1 = K(separation)(&c->p1, &d->p1, dA, dB, nx, ny);
    d4 s2 = K(separation)(&c->p2, &d->p2, dA, dB, nx, ny);
    K(Masses) m;
    K(load_masses)(k->masses, c->indexA, &m.mA, &m.iA);
    K(load_masses)(k->masses, c->indexB, &m.mB, &m.iB);
    m.mAnx = m.mA * nx;
    m.mAny = m.mA * ny;
    m.mBnx = m.mB * nx;
    m.mBny = m.mB * ny;
    K(Arms) arms1 = K(arms)(&c->p1, m), arms2 = K(arms)(&c->p2, m);
    K(Bodies) A = K(load_bodies)(states, c->indexA);
    K(Bodies) B = K(load_bodies)(states, c->indexB);
    m4 only = K(ldm)(c->hasP2);
    d4 linear = (B.vx - A.vx) * nx + (B.vy - A.vy) * ny;
    d4 u1 = K(normal_target)(&c->p1, &d->p1, s1, linear + (B.w * arms1.nB - A.w * arms1.nA), m, k, useBias);
    d4 u2 = K(normal_target)(&c->p2, &d->p2, s2, linear + (B.w * arms2.nB - A.w * arms2.nA), m, k, useBias);
    d4 j1, j2;
    K(block_increments)(u1, u2, K(ld)(c->p1.normalImpulse), K(ld)(c->p2.normalImpulse), d, &j1, &j2);
    K(apply_normal_pair)(j1, j2, &c->p1, &c->p2, &d->p1, &d->p2, arms1, arms2, &A, &B, m);
    d4 friction = K(ldf)(d->friction);
    K(friction_point)(&c->p1, K(ldf)(d->p1.tangentMass), arms1, &A, &B, nx, ny, m, friction, only, 0);
    K(friction_point)(&c->p2, K(ldf)(d->p2.tangentMass), arms2, &A, &B, nx, ny, m, friction, only, masked);
    K(store_bodies)(A, states, c->indexA, m.mA);
    K(store_bodies)(B, states, c->indexB, m.mB);
}

/// Solves one batch, with the copy of the batch code for a batch where some lane has no
/// second point or the one where all have (each with `masked` a constant).
static inline __attribute__((always_inline)) void K(solve_one)(QixContactBatch *c, QixBatchSolve *d,
                                                              QixBodyState *states, const QixPassConstants *k,
                                                              int useBias) {
    const int64_t *h = c->hasP2;
    if ((h[0] & h[1] & h[2] & h[3]) != 0) {
        K(solve_batch)(c, d, states, k, useBias, 0);
    } else {
        K(solve_batch)(c, d, states, k, useBias, 1);
    }
}

/// Last step's impulses of one point applied to both sides (`ContactSolver.warmStart`'s
/// `apply`, lane by lane: the scalar code's operations in its order).
static inline __attribute__((always_inline)) void K(warm_point)(const QixBatchPoint *p, d4 nx, d4 ny, d4 mA, d4 iA,
                                                               d4 mB, d4 iB, K(Bodies) *A, K(Bodies) *B) {
    d4 ni = K(ld)(p->normalImpulse), ti = K(ld)(p->tangentImpulse);
    d4 px = ni * nx + ti * ny;
    d4 py = ni * ny - ti * nx;
    A->vx = A->vx - mA * px;
    A->vy = A->vy - mA * py;
    A->w = A->w - iA * (ni * K(ldf)(p->normalArmA) + ti * K(ldf)(p->tangentArmA));
    B->vx = B->vx + mB * px;
    B->vy = B->vy + mB * py;
    B->w = B->w + iB * (ni * K(ldf)(p->normalArmB) + ti * K(ldf)(p->tangentArmB));
}

/// `ContactSolver.warmStart` for one batch, its four lanes side by side: each lane does the
/// scalar code's operations in its order; a lane without a second point keeps the velocities
/// it had before that point (a select, as if the point were skipped), and only sides that can
/// move are stored (unused lanes have none).
static inline __attribute__((always_inline)) void K(warm_batch)(const QixContactBatch *c, QixBodyState *states,
                                                               const double *masses) {
    d4 nx = K(ldf)(c->normalX), ny = K(ldf)(c->normalY);
    d4 mA, iA, mB, iB;
    K(load_masses)(masses, c->indexA, &mA, &iA);
    K(load_masses)(masses, c->indexB, &mB, &iB);
    K(Bodies) A = K(load_bodies)(states, c->indexA);
    K(Bodies) B = K(load_bodies)(states, c->indexB);
    K(warm_point)(&c->p1, nx, ny, mA, iA, mB, iB, &A, &B);
    m4 two = K(ldm)(c->hasP2);
    K(Bodies) A2 = A, B2 = B;
    K(warm_point)(&c->p2, nx, ny, mA, iA, mB, iB, &A2, &B2);
    A.vx = K(sel)(two, A2.vx, A.vx);
    A.vy = K(sel)(two, A2.vy, A.vy);
    A.w = K(sel)(two, A2.w, A.w);
    B.vx = K(sel)(two, B2.vx, B.vx);
    B.vy = K(sel)(two, B2.vy, B.vy);
    B.w = K(sel)(two, B2.w, B.w);
    K(store_bodies)(A, states, c->indexA, mA);
    K(store_bodies)(B, states, c->indexB, mB);
}

/// One copy of the batch loop per `useBias`, first to last batch or (`reverse`) last to first.
static inline __attribute__((always_inline)) void K(pass)(QixContactBatch *batches, QixBatchSolve *solve,
                                                         ptrdiff_t count, QixBodyState *states,
                                                         const QixPassConstants *k, int useBias) {
    if (k->reverse) {
        for (ptrdiff_t n = count - 1; n >= 0; n--) K(solve_one)(batches + n, solve + n, states, k, useBias);
    } else {
        for (ptrdiff_t n = 0; n < count; n++) K(solve_one)(batches + n, solve + n, states, k, useBias);
    }
}

void K(qix_contact_pass)(QixContactBatch *restrict batches, QixBatchSolve *restrict solve, ptrdiff_t count,
                        QixBodyState *restrict states, const QixPassConstants *constants) {
    if (constants->useBias) {
        K(pass)(batches, solve, count, states, constants, 1);
    } else {
        K(pass)(batches, solve, count, states, constants, 0);
    }
}

void K(qix_contact_warm_start)(const QixContactBatch *restrict batches, ptrdiff_t count,
                              QixBodyState *restrict states, const double *masses) {
    for (ptrdiff_t n = 0; n < count; n++) K(warm_batch)(batches + n, states, masses);
}

void K(qix_contact_warm_start_and_solve)(QixContactBatch *restrict batches, QixBatchSolve *restrict solve,
                                        ptrdiff_t count, QixBodyState *restrict states,
                                        const QixPassConstants *constants, const int32_t *warmedBy) {
    ptrdiff_t warmed = 0;
    for (ptrdiff_t n = 0; n < count; n++) {
        // Every batch up to the last one of any body of batch n is warm-started before batch n
        // is solved (at least batch n itself, whose impulses the solve overwrites).
        ptrdiff_t upTo = warmedBy[n] > n ? warmedBy[n] : n + 1;
        if (upTo > count) upTo = count;
        for (; warmed < upTo; warmed++) K(warm_batch)(batches + warmed, states, constants->masses);
        K(solve_one)(batches + n, solve + n, states, constants, 1);
    }
}
