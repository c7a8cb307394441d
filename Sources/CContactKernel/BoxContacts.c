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

/// `PairTable.find`: the index of last step's contact of bodies a and b, or -1.
static inline __attribute__((always_inline)) ptrdiff_t table_find(const QixOldContacts *old, int32_t a, int32_t b) {
    if ((ptrdiff_t)a + 1 >= old->tableCount) return -1;
    for (int32_t slot = old->tableStart[a]; slot < old->tableStart[a + 1]; slot++) {
        if (old->tableSecond[slot] == b) return old->tableOrder[slot];
    }
    return -1;
}

/// The same out of line, for the loop that rarely needs it (inlined it cost that loop registers).
static __attribute__((noinline)) ptrdiff_t table_find_outlined(const QixOldContacts *old, int32_t a, int32_t b) {
    return table_find(old, a, b);
}

/// Writes contact `found` (bodies a and b, key `key`, manifold m, points p0 and p1, point ids
/// `ids`) as `World.contact` and the narrow phase's loop do, and its key, ids and touching
/// bit; returns whether it touches.
static inline __attribute__((always_inline)) int write_contact(
    QixContact *contacts, uint64_t *keys, uint32_t *pointIDs, uint64_t *touchingBits, ptrdiff_t found, int32_t a,
    int32_t b, uint64_t key, const QixBoxManifold *m, QixContactPoint p0, QixContactPoint p1, const uint32_t *ids,
    double linearSlop) {
    QixContact *c = contacts + found;
    c->a = a;
    c->b = b;
    c->pointCount = (int32_t)m->count;
    c->normalX = m->normalX;
    c->normalY = m->normalY;
    c->p0 = p0;
    c->p1 = p1;
    keys[found] = key;
    uint32_t *o = pointIDs + 4 * found;
    o[0] = ids[0];
    o[1] = ids[1];
    o[2] = ids[2];
    o[3] = ids[3];
    if (swift_min(p0.separation, m->count > 1 ? p1.separation : __builtin_inf()) < linearSlop) {
        touchingBits[found >> 6] |= (uint64_t)1 << (found & 63);
        return 1;
    }
    return 0;
}

/// The loop of `qix_box_contacts`, in one copy per `mayRepeat` (a constant in each): with
/// repeated keys every lookup is in the table, else almost none is.
static inline __attribute__((always_inline)) ptrdiff_t box_contacts(
    const int32_t *pairs, ptrdiff_t from, ptrdiff_t to, const QixCollider *colliders,
    const QixBoxManifold *manifolds, QixOldContacts *old, QixNarrowOutput *out, double linearSlop,
    const int mayRepeat) {
    // Everything in locals: the stores through the output pointers could otherwise alias the
    // records' fields, which the loop would then read again for every pair.
    const uint64_t *oldKeys = old->keys;
    const uint32_t *oldIDs = old->pointIDs;
    const QixContactBatch *batches = old->batches;
    const int32_t *slotOf = old->slotOfContact;
    const ptrdiff_t oldCount = old->count;
    const int hasTable = old->tableStart != NULL;
    ptrdiff_t shift = old->shift;
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
        if (!(A->isRectangle && B->isRectangle)) break;
        if (A->invMass == 0 && B->invMass == 0) continue;
        if (!B->isBoundary && (A->itemMask & B->itemMask) == 0) continue;
        if (m->count == 0) continue;
        uint64_t key = (uint64_t)(uint32_t)a << 32 | (uint64_t)(uint32_t)b;
        int two = m->count > 1;
        uint32_t ids[4] = {(uint32_t)m->id0, two ? (uint32_t)m->id1 : 0, (uint32_t)m->count, 0};
        QixContactPoint p0 = point_of(m->x0, m->y0, m->separation0);
        QixContactPoint p1 = two ? point_of(m->x1, m->y1, m->separation1) : point_of(0.0, 0.0, 0.0);
        if (batches) {
            // `OldContacts.find`: the guess, else the table (which moves the guess).
            ptrdiff_t guess = found + shift, previous = -1;
            if (__builtin_expect(!mayRepeat && guess >= 0 && guess < oldCount && oldKeys[guess] == key, 1)) {
                previous = guess;
            } else {
                if (!hasTable) break;
                previous = mayRepeat ? table_find(old, a, b) : table_find_outlined(old, a, b);
                if (previous >= 0) shift = previous - found;
            }
            if (previous >= 0) {
                uint32_t slot = (uint32_t)slotOf[previous];
                warm_start(&p0, &p1, ids, oldIDs + 4 * previous, batches + (slot >> 2), (int)(slot & 3));
            }
        }
        if (found >= oldCount || oldKeys[found] != key) differ = 1;
        touching += write_contact(contacts, keys, pointIDs, touchingBits, found, a, b, key, m, p0, p1, ids, linearSlop);
        found++;
    }
    old->shift = shift;
    out->found = found;
    out->touchingCount = touching;
    out->keysDiffer = differ;
    return k;
}

ptrdiff_t qix_box_pair_starts(const int32_t *pairs, ptrdiff_t from, ptrdiff_t to, const QixCollider *colliders,
                              int32_t *starts) {
    ptrdiff_t n = 0;
    for (ptrdiff_t k = from; k < to; k++) {
        const QixCollider *A = colliders + pairs[2 * k], *B = colliders + pairs[2 * k + 1];
        if (!(A->isRectangle && B->isRectangle)) continue;
        starts[2 * n] = A->shapeStart;
        starts[2 * n + 1] = B->shapeStart;
        n++;
    }
    return n;
}

ptrdiff_t qix_box_contacts(const int32_t *pairs, ptrdiff_t from, ptrdiff_t to, const QixCollider *colliders,
                           const QixBoxManifold *manifolds, QixOldContacts *old, QixNarrowOutput *out,
                           double linearSlop) {
    if (old->mayRepeat) return box_contacts(pairs, from, to, colliders, manifolds, old, out, linearSlop, 1);
    return box_contacts(pairs, from, to, colliders, manifolds, old, out, linearSlop, 0);
}
