// The broad phase's boxes and grid cells in C, for QixDynamics (BroadPhase.swift,
// BroadPhaseCells.swift): what `BroadPhase.prepareCells` computes for each item, four
// coordinates in lanes, with the same operations, so the same cells (docs/determinism.md,
// rule 9).
#ifndef C_BROAD_PHASE_CELLS_H
#define C_BROAD_PHASE_CELLS_H

#include <stddef.h>
#include <stdint.h>

#include "BodyFields.h"

/// For each item k (body `items[k]` of `bodies`, records as `fields` says): its box (`lower`,
/// `upper`) copied to `boxLower[k]` and `boxUpper[k]` ((x, y) pairs), the cell of its lower
/// corner to `cellLow[k]` and that of its upper corner, never below the lower one, to
/// `cellHigh[k]` ((x, y) pairs): floor(coordinate * `invCell`) clamped to +-1e9.
typedef void (*QixBroadPhaseCellsFunction)(const char *bodies, const QixBodyFields *fields, const int32_t *items,
                                           ptrdiff_t count, double invCell, double *boxLower, double *boxUpper,
                                           int32_t *cellLow, int32_t *cellHigh);

/// The cells compiled for baseline x86-64 (or for the target elsewhere).
void qix_broad_phase_cells_portable(const char *bodies, const QixBodyFields *fields, const int32_t *items,
                                    ptrdiff_t count, double invCell, double *boxLower, double *boxUpper,
                                    int32_t *cellLow, int32_t *cellHigh);

/// The same compiled for AVX2 (x86-64 only; elsewhere the portable code). Call it only when
/// `qix_contact_avx2_supported()` says so.
void qix_broad_phase_cells_avx2(const char *bodies, const QixBodyFields *fields, const int32_t *items,
                                ptrdiff_t count, double invCell, double *boxLower, double *boxUpper, int32_t *cellLow,
                                int32_t *cellHigh);

#endif
