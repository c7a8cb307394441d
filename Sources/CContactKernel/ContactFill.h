// The batch fill of `ContactSolver.prepare` (one step's lever arms, effective masses, approach
// speeds and last step's impulses), included after ContactPasses.h in each build of
// ContactKernel.c. Each lane does `ContactSolver.fill`'s operations in its order (scalar
// negations stay sign flips there, as Swift's scalar prefix minus is); unused lanes and
// missing second points are +0 throughout, as `ContactSolver.clear` and `PointLane()` write.

/// One solver point of four contacts (`ContactSolver.fill`'s `point`), for lanes `use`
/// (others +0).
static inline __attribute__((always_inline)) void K(fill_point)(const QixContactPoint *cp[4], m4 use, d4 nx, d4 ny,
                                                               d4 mA, d4 iA, d4 mB, d4 iB, K(Bodies) A, K(Bodies) B,
                                                               const d4 centers[4], QixBatchPoint *p, QixPointSolve *q,
                                                               float *approach) {
    const d4 zero = (d4)(0.0);
    // The anchors: the point minus each centre of mass (`ContactSolver.fill`).
    d4 px = {cp[0]->pointX, cp[1]->pointX, cp[2]->pointX, cp[3]->pointX};
    d4 py = {cp[0]->pointY, cp[1]->pointY, cp[2]->pointY, cp[3]->pointY};
    d4 rAx = px - centers[0], rAy = py - centers[1];
    d4 rBx = px - centers[2], rBy = py - centers[3];
    d4 separation = {cp[0]->separation, cp[1]->separation, cp[2]->separation, cp[3]->separation};
    d4 ni = {cp[0]->normalImpulse, cp[1]->normalImpulse, cp[2]->normalImpulse, cp[3]->normalImpulse};
    d4 ti = {cp[0]->tangentImpulse, cp[1]->tangentImpulse, cp[2]->tangentImpulse, cp[3]->tangentImpulse};
    d4 baseSeparation = separation - ((rBx - rAx) * nx + (rBy - rAy) * ny);
    d4 rnA = rAx * ny - rAy * nx, rnB = rBx * ny - rBy * nx;
    d4 kNormal = mA + mB + iA * rnA * rnA + iB * rnB * rnB;
    d4 normalMass = K(sel)(kNormal > zero, (d4)(1.0) / kNormal, zero);
    // Tangent (ny, -nx): a scalar negation in Swift, so a sign flip here.
    d4 tx = ny, ty = -nx;
    d4 rtA = rAx * ty - rAy * tx, rtB = rBx * ty - rBy * tx;
    d4 kTangent = mA + mB + iA * rtA * rtA + iB * rtB * rtB;
    d4 tangentMass = K(sel)(kTangent > zero, (d4)(1.0) / kTangent, zero);
    // vA + crossSV(wA, rA) = (vA.x + (-wA) rA.y, vA.y + wA rA.x).
    d4 vrAx = A.vx + -A.w * rAy, vrAy = A.vy + A.w * rAx;
    d4 vrBx = B.vx + -B.w * rBy, vrBy = B.vy + B.w * rBx;
    d4 relativeVelocity = nx * (vrBx - vrAx) + ny * (vrBy - vrAy);
    K(stf)(p->normalArmA, K(sel)(use, rnA, zero));
    K(stf)(p->normalArmB, K(sel)(use, rnB, zero));
    K(stf)(p->tangentArmA, K(sel)(use, rtA, zero));
    K(stf)(p->tangentArmB, K(sel)(use, rtB, zero));
    K(st)(p->normalImpulse, K(sel)(use, ni, zero));
    K(st)(p->tangentImpulse, K(sel)(use, ti, zero));
    K(st)(q->baseSeparation, K(sel)(use, baseSeparation, zero));
    K(stf)(q->normalMass, K(sel)(use, normalMass, zero));
    K(stf)(q->tangentMass, K(sel)(use, tangentMass, zero));
    K(st)(q->maxNormalImpulse, zero);
    K(stf)(approach, K(sel)(use, relativeVelocity, zero));
}

/// `ContactSolver.coupling` for the lanes `both` (two points), from the stored arms and normal
/// masses; other lanes get no coupling (0, 0, 1). Near-singular lanes drop their second point's
/// normal mass and impulses.
static inline __attribute__((always_inline)) void K(fill_coupling)(QixContactBatch *b, QixBatchSolve *d, m4 both,
                                                                  d4 mA, d4 iA, d4 mB, d4 iB) {
    const d4 zero = (d4)(0.0), one = (d4)(1.0);
    d4 k12 = mA + mB + iA * K(ldf)(b->p1.normalArmA) * K(ldf)(b->p2.normalArmA) +
             iB * K(ldf)(b->p1.normalArmB) * K(ldf)(b->p2.normalArmB);
    d4 c12 = k12 * K(ldf)(d->p1.normalMass), c21 = k12 * K(ldf)(d->p2.normalMass);
    d4 det = one - c12 * c21;
    m4 block = both & (det > (d4)(0.001));
    m4 drop = both & ~block;
    K(stf)(d->coupling12, K(sel)(block, c12, zero));
    K(stf)(d->coupling21, K(sel)(block, c21, zero));
    K(stf)(d->blockScale, K(sel)(block, one / det, one));
    K(stf)(d->p2.normalMass, K(sel)(drop, zero, K(ldf)(d->p2.normalMass)));
    K(st)(b->p2.normalImpulse, K(sel)(drop, zero, K(ld)(b->p2.normalImpulse)));
    K(st)(b->p2.tangentImpulse, K(sel)(drop, zero, K(ld)(b->p2.tangentImpulse)));
}

/// Fills one batch from the contacts of its four slots (-1: an unused lane).
static inline __attribute__((always_inline)) void K(fill_batch)(QixContactBatch *b, QixBatchSolve *d, QixBatchBounce *o,
                                                               const int32_t *slot, const QixContact *contacts,
                                                               const double *masses, const double *materials,
                                                               const double *centers, const QixBodyState *states) {
    // Unused lanes read an empty contact between the static body 0 and itself; every value
    // they store is then replaced by +0.
    static const QixContact none;
    const QixContact *c[4];
    const QixContactPoint *p1[4], *p2[4];
    int64_t used[4], two[4];
    for (int l = 0; l < 4; l++) {
        c[l] = slot[l] >= 0 ? contacts + slot[l] : &none;
        used[l] = slot[l] >= 0 ? -1 : 0;
        two[l] = slot[l] >= 0 && c[l]->pointCount > 1 ? -1 : 0;
        p1[l] = &c[l]->p0;
        p2[l] = two[l] ? &c[l]->p1 : &none.p0;
        b->indexA[l] = (int32_t)c[l]->a;
        b->indexB[l] = (int32_t)c[l]->b;
        // Set for an unused lane too (all +0, body 0, never stored): a part-empty batch of
        // two-point contacts then takes the unmasked batch code (`ContactBatch.hasP2`).
        b->hasP2[l] = slot[l] < 0 ? -1 : two[l];
    }
    m4 use = {used[0], used[1], used[2], used[3]}, both = {two[0], two[1], two[2], two[3]};
    const d4 zero = (d4)(0.0);
    d4 mA = {masses[2 * c[0]->a], masses[2 * c[1]->a], masses[2 * c[2]->a], masses[2 * c[3]->a]};
    d4 iA = {masses[2 * c[0]->a + 1], masses[2 * c[1]->a + 1], masses[2 * c[2]->a + 1], masses[2 * c[3]->a + 1]};
    d4 mB = {masses[2 * c[0]->b], masses[2 * c[1]->b], masses[2 * c[2]->b], masses[2 * c[3]->b]};
    d4 iB = {masses[2 * c[0]->b + 1], masses[2 * c[1]->b + 1], masses[2 * c[2]->b + 1], masses[2 * c[3]->b + 1]};
    d4 nx = {c[0]->normalX, c[1]->normalX, c[2]->normalX, c[3]->normalX};
    d4 ny = {c[0]->normalY, c[1]->normalY, c[2]->normalY, c[3]->normalY};
    // Box2D's mixing: the geometric mean of the frictions (a correctly rounded square root, as
    // Swift's), the larger restitution (Swift's `max(x, y)` is `y >= x ? y : x`).
    d4 friction, restitution;
    for (int l = 0; l < 4; l++) {
        const double *fa = materials + 2 * c[l]->a, *fb = materials + 2 * c[l]->b;
        friction[l] = __builtin_sqrt(fa[0] * fb[0]);
        restitution[l] = fb[1] >= fa[1] ? fb[1] : fa[1];
    }
    K(Bodies) A = K(load_bodies)((QixBodyState *)states, b->indexA);
    K(Bodies) B = K(load_bodies)((QixBodyState *)states, b->indexB);
    K(stf)(b->normalX, K(sel)(use, nx, zero));
    K(stf)(b->normalY, K(sel)(use, ny, zero));
    K(stf)(d->friction, K(sel)(use, friction, zero));
    K(stf)(o->restitution, K(sel)(use, restitution, zero));
    // Centres of both sides: x and y of A, then of B.
    d4 cs[4];
    for (int l = 0; l < 4; l++) {
        cs[0][l] = centers[2 * c[l]->a];
        cs[1][l] = centers[2 * c[l]->a + 1];
        cs[2][l] = centers[2 * c[l]->b];
        cs[3][l] = centers[2 * c[l]->b + 1];
    }
    K(fill_point)(p1, use, nx, ny, mA, iA, mB, iB, A, B, cs, &b->p1, &d->p1, o->relativeVelocity1);
    K(fill_point)(p2, both, nx, ny, mA, iA, mB, iB, A, B, cs, &b->p2, &d->p2, o->relativeVelocity2);
    K(fill_coupling)(b, d, both, mA, iA, mB, iB);
}

void K(qix_contact_fill)(QixContactBatch *restrict batches, QixBatchSolve *restrict solve,
                        QixBatchBounce *restrict bounce, ptrdiff_t count, const int32_t *slots,
                        const QixContact *contacts, const double *masses, const double *materials,
                        const double *centers, const QixBodyState *states) {
    for (ptrdiff_t n = 0; n < count; n++) {
        K(fill_batch)(batches + n, solve + n, bounce + n, slots + 4 * n, contacts, masses, materials, centers,
                      states);
    }
}
