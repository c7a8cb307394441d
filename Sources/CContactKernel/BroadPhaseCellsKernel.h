// `BroadPhase.prepareCells`, included once per build by BroadPhaseCells.c with `K(name)`
// giving the names their suffix: an item's lower x, lower y, upper x and upper y in the four
// lanes of one vector, each lane `BroadPhase.cell` of its coordinate:
//     scaled = x * invCell
//     c = scaled >= -1e9 ? (scaled <= 1e9 ? scaled : 1e9) : -1e9    (NaN goes to -1e9)
//     t = Int32(c) (truncation), and t - 1 where Double(t) > c.
// Do not reorder or "simplify" an expression here without doing the same in BroadPhase.swift
// (docs/determinism.md rule 9).

static inline __attribute__((always_inline)) d4 K(pick_cell)(m4 m, d4 a, d4 b) {
    return (d4)((m & (m4)a) | (~m & (m4)b));
}

void K(qix_broad_phase_cells)(const char *bodies, const QixBodyFields *fields, const int32_t *items, ptrdiff_t count,
                              double invCell, double *boxLower, double *boxUpper, int32_t *cellLow,
                              int32_t *cellHigh) {
    const QixBodyFields f = *fields;
    const d4 inv = (d4)(invCell), low = (d4)(-1e9), high = (d4)(1e9);
    for (ptrdiff_t k = 0; k < count; k++) {
        const char *b = bodies + (ptrdiff_t)items[k] * f.stride;
        double lu[4];
        memcpy(lu, b + f.lower, 2 * sizeof(double));
        memcpy(lu + 2, b + f.upper, 2 * sizeof(double));
        memcpy(boxLower + 2 * k, lu, 2 * sizeof(double));
        memcpy(boxUpper + 2 * k, lu + 2, 2 * sizeof(double));
        d4 box;
        memcpy(&box, lu, sizeof box);
        d4 scaled = box * inv;
        d4 c = K(pick_cell)(scaled >= low, K(pick_cell)(scaled <= high, scaled, high), low);
        i4 t = __builtin_convertvector(c, i4);
        i4 below = __builtin_convertvector(__builtin_convertvector(t, d4) > c, i4);  // -1 where above c
        i4 cell = t + below;
        // Swift's max(low, cell(upper)): the upper corner's cell, never below the lower one's.
        i4 lowCell = __builtin_shufflevector(cell, cell, 0, 1, 0, 1);
        i4 upperCell = cell > lowCell ? cell : lowCell;
        memcpy(cellLow + 2 * k, &cell, 2 * sizeof(int32_t));
        int32_t up[4];
        memcpy(up, &upperCell, sizeof up);
        memcpy(cellHigh + 2 * k, up + 2, 2 * sizeof(int32_t));
    }
}
