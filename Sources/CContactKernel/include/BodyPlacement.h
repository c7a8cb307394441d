// The step's last stage in C, for QixDynamics (World.swift, BodyPlacement.swift): each moving
// item's new centre, angle, rotation (`DeterministicMath.sinCos`) and origin from the step's
// displacement, as `World.finalizePlacements` computes them, four bodies at a time in lanes
// with the same IEEE operations in the same order per body, so the same bits
// (docs/determinism.md, rule 9).
#ifndef C_BODY_PLACEMENT_H
#define C_BODY_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

#include "BodyFields.h"

// `QixBodyState` (CContactKernel.h) by its tag: CContactKernel.h includes this header.
struct QixBodyState;

/// For each body `items[k]` of `bodies` (records as `fields` says) with a nonzero inverse
/// mass: centre = centre at the start of the step + the displacement in `states`; when its
/// step angle is nonzero, angle = start angle + step angle and the rotation that angle's
/// cosine and sine; origin = centre - rotation(local centre of mass); force and torque zero.
typedef void (*QixBodyPlacementFunction)(char *bodies, const QixBodyFields *fields, const int32_t *items,
                                         ptrdiff_t count, const struct QixBodyState *states);

/// The placements compiled for baseline x86-64 (or for the target elsewhere).
void qix_finalize_placements_portable(char *bodies, const QixBodyFields *fields, const int32_t *items,
                                      ptrdiff_t count, const struct QixBodyState *states);

/// The same compiled for AVX2 (x86-64 only; elsewhere the portable code). Call it only when
/// `qix_contact_avx2_supported()` says so.
void qix_finalize_placements_avx2(char *bodies, const QixBodyFields *fields, const int32_t *items, ptrdiff_t count,
                                  const struct QixBodyState *states);

#endif
