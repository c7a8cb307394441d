// `World.finalizePlacements` with `DeterministicMath.sinCos`, included once per build by
// BodyPlacement.c with `K(name)` giving the names their suffix. Four moving bodies at a time,
// one per lane: their fields are gathered into a vector each, every lane does the Swift code's
// operations on its body operand for operand, and the results are stored back lane by lane.
// The Swift code turns a body only when its step angle is nonzero: every lane computes the
// turn, and a select keeps the old angle and rotation where the Swift code skips it. Do not
// reorder or "simplify" an expression here without doing the same in World.swift and
// DeterministicMath.swift (docs/determinism.md rule 9).

static inline __attribute__((always_inline)) d4 K(pick)(m4 m, d4 a, d4 b) {
    return (d4)((m & (m4)a) | (~m & (m4)b));
}

/// `DeterministicMath.kernelSin` lane by lane.
static inline __attribute__((always_inline)) d4 K(kernel_sin)(d4 x) {
    d4 z = x * x;
    d4 p = -1.66666666666666324348e-01
           + z * (8.33333333332248946124e-03
                  + z * (-1.98412698298579493134e-04
                         + z * (2.75573137070700676789e-06
                                + z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10))));
    return x + x * z * p;
}

/// `DeterministicMath.kernelCos` lane by lane.
static inline __attribute__((always_inline)) d4 K(kernel_cos)(d4 x) {
    d4 z = x * x;
    d4 p = 4.16666666666666019037e-02
           + z * (-1.38888888888741095749e-03
                  + z * (2.48015872894767294178e-05
                         + z * (-2.75573143513906633035e-07
                                + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11))));
    d4 hz = 0.5 * z;
    d4 w = 1.0 - hz;
    return w + (((1.0 - w) - hz) + z * z * p);
}

/// `DeterministicMath.sinCos` lane by lane: NaN (Swift's `.nan`) from |x| >= 1e15 on and
/// for NaN; else the kernels on x reduced by k π/2 (k to the nearest even integer), their
/// roles and signs from k mod 4.
static inline __attribute__((always_inline)) void K(sin_cos)(d4 x, d4 *sine, d4 *cosine) {
    const m4 signBit = (m4)(INT64_MIN);
    m4 inRange = (d4)((m4)x & ~signBit) < (d4)(1e15);
    d4 k = __builtin_elementwise_roundeven(x * 6.36619772367581382433e-01);
    d4 r = ((x - k * 1.57079632673412561417e+00) - k * 6.07710050630396597660e-11) - k * 2.02226624871116645580e-21;
    d4 s = K(kernel_sin)(r), c = K(kernel_cos)(r);
    // |k| < 6.4e14 in range: an exact integer whose low two bits are k mod 4 (`Int(k) & 3`).
    m4 quadrant = __builtin_convertvector(K(pick)(inRange, k, (d4)(0.0)), m4) & (m4)(3);
    m4 swapped = (quadrant & (m4)(1)) != (m4)(0);
    d4 baseSin = K(pick)(swapped, c, s), baseCos = K(pick)(swapped, s, c);
    m4 negateSin = (quadrant & (m4)(2)) != (m4)(0), negateCos = ((quadrant + (m4)(1)) & (m4)(2)) != (m4)(0);
    baseSin = K(pick)(negateSin, -baseSin, baseSin);
    baseCos = K(pick)(negateCos, -baseCos, baseCos);
    const d4 nan = (d4)(__builtin_nan(""));
    *sine = K(pick)(inRange, baseSin, nan);
    *cosine = K(pick)(inRange, baseCos, nan);
}

static inline __attribute__((always_inline)) double K(field)(const char *b, ptrdiff_t offset) {
    double v;
    memcpy(&v, b + offset, sizeof v);
    return v;
}

static inline __attribute__((always_inline)) void K(set_field)(char *b, ptrdiff_t offset, double v) {
    memcpy(b + offset, &v, sizeof v);
}

/// The double at `offset` of each lane's record (written out lane by lane, so the lanes are
/// put together with inserts rather than a blend per lane).
static inline __attribute__((always_inline)) d4 K(gather)(const char *const b[4], ptrdiff_t offset) {
    return (d4){K(field)(b[0], offset), K(field)(b[1], offset), K(field)(b[2], offset), K(field)(b[3], offset)};
}

/// Stores lane `l` of the results into its record.
static inline __attribute__((always_inline)) void K(store_lane)(char *b, int l, const QixBodyFields *f, d4 cx, d4 cy,
                                                               d4 angle, d4 qc, d4 qs, d4 ox, d4 oy) {
    K(set_field)(b, f->center, cx[l]);
    K(set_field)(b, f->center + 8, cy[l]);
    K(set_field)(b, f->angle, angle[l]);
    K(set_field)(b, f->rotation, qc[l]);
    K(set_field)(b, f->rotation + 8, qs[l]);
    K(set_field)(b, f->origin, ox[l]);
    K(set_field)(b, f->origin + 8, oy[l]);
    K(set_field)(b, f->force, 0.0);
    K(set_field)(b, f->force + 8, 0.0);
    K(set_field)(b, f->torque, 0.0);
}

/// Places the bodies `b[0..<valid]` (lanes from `valid` on repeat lane 0 and are not stored).
static inline __attribute__((always_inline)) void K(place4)(char *const b[4], const QixBodyState *const s[4],
                                                           int valid, const QixBodyFields *f) {
    const char *const sb[4] = {(const char *)s[0], (const char *)s[1], (const char *)s[2], (const char *)s[3]};
    const char *const bb[4] = {b[0], b[1], b[2], b[3]};
    d4 dpx = K(gather)(sb, offsetof(QixBodyState, dpx)), dpy = K(gather)(sb, offsetof(QixBodyState, dpy));
    d4 dAngle = K(gather)(sb, offsetof(QixBodyState, dAngle));
    d4 cx = K(gather)(bb, f->center0) + dpx, cy = K(gather)(bb, f->center0 + 8) + dpy;
    m4 turns = dAngle != (d4)(0.0);
    d4 turned = K(gather)(bb, f->angle0) + dAngle, sine, cosine;
    K(sin_cos)(turned, &sine, &cosine);
    d4 angle = K(pick)(turns, turned, K(gather)(bb, f->angle));
    d4 qc = K(pick)(turns, cosine, K(gather)(bb, f->rotation));
    d4 qs = K(pick)(turns, sine, K(gather)(bb, f->rotation + 8));
    d4 lx = K(gather)(bb, f->localCenter), ly = K(gather)(bb, f->localCenter + 8);
    d4 ox = cx - (qc * lx - qs * ly), oy = cy - (qs * lx + qc * ly);
    if (valid == 4) {
        // Constant lanes: each value comes out of its vector with one extract.
        for (int l = 0; l < 4; l++) K(store_lane)(b[l], l, f, cx, cy, angle, qc, qs, ox, oy);
    } else {
        for (int l = 0; l < valid; l++) K(store_lane)(b[l], l, f, cx, cy, angle, qc, qs, ox, oy);
    }
}

void K(qix_finalize_placements)(char *bodies, const QixBodyFields *fields, const int32_t *items, ptrdiff_t count,
                                const QixBodyState *states) {
    const QixBodyFields f = *fields;
    char *b[4];
    const QixBodyState *s[4];
    int n = 0;
    for (ptrdiff_t k = 0; k < count; k++) {
        char *body = bodies + (ptrdiff_t)items[k] * f.stride;
        if (K(field)(body, f.invMass) == 0) continue;
        b[n] = body;
        s[n] = states + items[k];
        if (++n == 4) {
            K(place4)(b, s, 4, &f);
            n = 0;
        }
    }
    if (n == 0) return;
    for (int l = n; l < 4; l++) {
        b[l] = b[0];
        s[l] = s[0];
    }
    K(place4)(b, s, n, &f);
}
