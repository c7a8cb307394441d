// The narrow phase's contact records for pairs of boxes in C, for QixDynamics
// (World+Collision.swift, BoxContacts.swift): what `World.contact` does with a manifold from
// the box lanes (BoxManifold.h), pair after pair, with the same comparisons and copies, so the
// records, keys, point ids and touching bits are the Swift code's, bit for bit. Only the
// warm start's lookups are the Swift code's too: first guess, then the pair table; a pair that
// needs the table before the Swift code has built it goes back to the Swift code.
#ifndef C_BOX_CONTACTS_H
#define C_BOX_CONTACTS_H

#include <stddef.h>
#include <stdint.h>

#include "BoxManifold.h"
#include "CContactKernel.h"

/// What the narrow phase reads of a body (Swift `Collider`; 48 bytes a body in both).
typedef struct QixCollider {
    double centerX, centerY;
    double invMass;
    uint64_t itemMask;
    int32_t shapeStart, shapeCount;
    uint8_t isBoundary, isRectangle;
} QixCollider;

/// Last step's contacts as the warm start reads them (Swift `OldContacts` and
/// `ContactSolver.Impulses`): keys, point ids (id0, id1, count, 0 per contact), and the batches
/// holding the impulses with each contact's slot (NULL batches: no impulses, no warm start);
/// `shift` is the offset of the last contact found in the table (where the next is guessed),
/// updated as contacts are found; `mayRepeat`: keys may repeat, so every lookup goes through
/// the pair table (Swift `PairTable`: `tableStart[a]..<tableStart[a + 1]` are the slots of
/// first body a, `tableCount` starts; each slot's contact index and second body), which is
/// NULL while it is not built.
typedef struct QixOldContacts {
    const uint64_t *keys;
    ptrdiff_t count;
    const uint32_t *pointIDs;
    const QixContactBatch *batches;
    const int32_t *slotOfContact;
    ptrdiff_t shift;
    int32_t mayRepeat;
    const int32_t *tableStart;
    ptrdiff_t tableCount;
    const int32_t *tableOrder;
    const int32_t *tableSecond;
} QixOldContacts;

/// Where the contacts go (Swift `NarrowPhaseOutput`) and what is counted: `found` contacts so
/// far, `touching` of them, and whether a key differs from last step's at its index.
typedef struct QixNarrowOutput {
    QixContact *contacts;
    uint64_t *keys;
    uint32_t *pointIDs;
    uint64_t *touching;
    ptrdiff_t found;
    ptrdiff_t touchingCount;
    int32_t keysDiffer;
} QixNarrowOutput;

/// The box lanes' inputs for pairs `from..<to` of `pairs` (two body indices a pair): for each
/// pair of two rectangles, in order, its shapes' starts (A's, then B's) into `starts`.
/// Returns how many pairs that is.
ptrdiff_t qix_box_pair_starts(const int32_t *pairs, ptrdiff_t from, ptrdiff_t to, const QixCollider *colliders,
                              int32_t *starts);

/// Writes the contacts of pairs `from..<to` of `pairs` (two body indices a pair) as
/// `World.contact` does (`linearSlop`: the touching threshold), as long as they are pairs of
/// two rectangles, whose manifolds are `manifolds[0...]` in order. Returns the first pair it
/// did not write: one that is not two rectangles, or one whose last-step contact is not at the
/// guessed index while there is no table yet (the caller writes it, then goes on from the pair
/// after it with `manifolds` advanced past the box pairs written), or `to`.
ptrdiff_t qix_box_contacts(const int32_t *pairs, ptrdiff_t from, ptrdiff_t to, const QixCollider *colliders,
                           const QixBoxManifold *manifolds, QixOldContacts *old, QixNarrowOutput *out,
                           double linearSlop);

#endif
