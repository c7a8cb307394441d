// The narrow phase's contact records for pairs of boxes (include/BoxContacts.h): a
// transcription of `World.contact` and `World.narrowPhase`'s bookkeeping for the pairs the box
// lanes computed. Scalar code (no lanes): the Swift version spent most of its 260 instructions
// a pair on overflow checks, optionals and stack traffic, not on arithmetic; here there is
// none but one `min`, done as Swift's `min` does it.
#include "BoxContacts.h"

/// Swift's `min(x, y)`: `y < x ? y : x` (NaNs and zeros alike).
static inline double swift_min(double x, double y) { return y < x ? y : x; }

/// `ContactPoint(point:separation:)` with no impulses.
static inline QixContactPoint point_of(double x, double y, double separation) {
    QixContactPoint p = {x, y, separation, 0.0, 0.0};
    return p;
}

/// `World.warmStart`: the new points take the impulses of last step's point with the same
/// id (the second old point's when both have it).
static inline void warm_start(QixContactPoint *p0, QixContactPoint *p1, const uint32_t *ids, const uint32_t *o,
                              const QixContactBatch *batch, int lane) {
    uint32_t oldCount = o[2], count = ids[2];
    if (oldCount == 0 || count == 0) return;
    for (uint32_t k = 0; k < count && k < 2; k++) {
        QixContactPoint *p = k == 0 ? p0 : p1;
        uint32_t id = ids[k];
        if (oldCount > 1 && o[1] == id) {
            p->normalImpulse = batch->p2.normalImpulse[lane];
            p->tangentImpulse = batch->p2.tangentImpulse[lane];
        } else if (o[0] == id) {
            p->normalImpulse = batch->p1.normalImpulse[lane];
            p->tangentImpulse = batch->p1.tangentImpulse[lane];
        }
    }
}

ptrdiff_t qix_box_contacts(const int32_t *pairs, ptrdiff_t from, ptrdiff_t to, const QixCollider *colliders,
                           const QixBoxManifold *manifolds, QixOldContacts *old, QixNarrowOutput *out,
                           double linearSlop) {
    // Everything in locals: the stores through the output pointers could otherwise alias the
    // records' fields, which the loop would then read again for every pair.
    const uint64_t *oldKeys = old->keys;
    const uint32_t *oldIDs = old->pointIDs;
    const QixContactBatch *batches = old->batches;
    const int32_t *slotOf = old->slotOfContact;
    const ptrdiff_t oldCount = old->count, shift = old->shift;
    QixContact *contacts = out->contacts;
    uint64_t *keys = out->keys, *touchingBits = out->touching;
    uint32_t *pointIDs = out->pointIDs;
    ptrdiff_t found = out->found, touching = out->touchingCount;
    int32_t differ = out->keysDiffer;
    ptrdiff_t k = from;
    for (; k < to; k++) {
        const QixBoxManifold *m = manifolds + (k - from);
        int32_t a = pairs[2 * k], b = pairs[2 * k + 1];
        const QixCollider *A = colliders + a, *B = colliders + b;
        if (A->invMass == 0 && B->invMass == 0) continue;
        if (!B->isBoundary && (A->itemMask & B->itemMask) == 0) continue;
        if (m->count == 0) continue;
        uint64_t key = (uint64_t)(uint32_t)a << 32 | (uint64_t)(uint32_t)b;
        int two = m->count > 1;
        uint32_t ids[4] = {(uint32_t)m->id0, two ? (uint32_t)m->id1 : 0, (uint32_t)m->count, 0};
        QixContactPoint p0 = point_of(m->x0, m->y0, m->separation0);
        QixContactPoint p1 = two ? point_of(m->x1, m->y1, m->separation1) : point_of(0.0, 0.0, 0.0);
        if (batches) {
            ptrdiff_t guess = found + shift;
            if (!(guess >= 0 && guess < oldCount && oldKeys[guess] == key)) break;
            uint32_t slot = (uint32_t)slotOf[guess];
            warm_start(&p0, &p1, ids, oldIDs + 4 * guess, batches + (slot >> 2), (int)(slot & 3));
        }
        QixContact *c = contacts + found;
        c->a = a;
        c->b = b;
        c->pointCount = (int32_t)m->count;
        c->normalX = m->normalX;
        c->normalY = m->normalY;
        c->p0 = p0;
        c->p1 = p1;
        if (found >= oldCount || oldKeys[found] != key) differ = 1;
        keys[found] = key;
        uint32_t *o = pointIDs + 4 * found;
        o[0] = ids[0];
        o[1] = ids[1];
        o[2] = ids[2];
        o[3] = ids[3];
        if (swift_min(p0.separation, two ? p1.separation : __builtin_inf()) < linearSlop) {
            touchingBits[found >> 6] |= (uint64_t)1 << (found & 63);
            touching++;
        }
        found++;
    }
    out->found = found;
    out->touchingCount = touching;
    out->keysDiffer = differ;
    return k;
}
