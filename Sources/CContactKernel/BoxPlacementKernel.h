// `World.placeShapes` for items with four vertices, included once per build by BoxPlacement.c
// with `K(name)` giving the names their suffix. Two (x, y) points per 256-bit vector: for
// point (x, y) the Swift code computes x' = c * x - s * y and y' = s * x + c * y (then adds
// the origin for a vertex); here c * (x, y) and s * (y, x) are formed lane by lane and
// subtracted in the x lanes, added in the y lanes (c * y + s * x is s * x + c * y: IEEE
// addition commutes bit for bit). Do not reorder or "simplify" an expression here without doing
// the same in World+Collision.swift (docs/determinism.md rule 9).

static inline __attribute__((always_inline)) d4 K(load4)(const double *p) {
    d4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline __attribute__((always_inline)) void K(store4)(double *p, d4 v) { memcpy(p, &v, sizeof v); }

/// Two points (x0, y0, x1, y1) turned by (c, s): `Rotation.rotate` of each.
static inline __attribute__((always_inline)) d4 K(rotate2)(d4 v, d4 c, d4 s) {
    d4 a = c * v;
    d4 b = s * __builtin_shufflevector(v, v, 1, 0, 3, 2);
    return __builtin_shufflevector(a - b, a + b, 0, 5, 2, 7);
}

/// Swift's `min(lo, p)` lane by lane: `p < lo ? p : lo` (NaNs and zeros as Swift picks them).
static inline __attribute__((always_inline)) d2 K(min2)(d2 lo, d2 p) {
    m2 less = p < lo;
    return (d2)((less & (m2)p) | (~less & (m2)lo));
}

/// Swift's `max(hi, p)` lane by lane: `p >= hi ? p : hi`.
static inline __attribute__((always_inline)) d2 K(max2)(d2 hi, d2 p) {
    m2 more = p >= hi;
    return (d2)((more & (m2)p) | (~more & (m2)hi));
}

static inline __attribute__((always_inline)) d2 K(half)(d4 v, int upper) {
    return upper ? __builtin_shufflevector(v, v, 2, 3) : __builtin_shufflevector(v, v, 0, 1);
}

/// Whether placed normals n2 = -n0 and n3 = -n1 bit for bit (`Collide.isBox`).
static inline __attribute__((always_inline)) int K(is_box)(d4 n01, d4 n23) {
    m4 same = (m4)n23 == (m4)(-n01);
    return same[0] && same[1] && same[2] && same[3];
}

/// Places one body with four vertices (`b`: its record).
static inline __attribute__((always_inline)) void K(place_box)(char *b, const QixBodyFields *f, int32_t index,
                                                              const double *vertices, const double *normals,
                                                              double *placedVertices, double *placedNormals,
                                                              double margin, QixCollider *colliders) {
    double origin[2], q[2], radius;
    int32_t shapeStart, placedStart;
    memcpy(origin, b + f->origin, sizeof origin);
    memcpy(q, b + f->rotation, sizeof q);
    memcpy(&radius, b + f->radius, sizeof radius);
    memcpy(&shapeStart, b + f->shapeStart, sizeof shapeStart);
    memcpy(&placedStart, b + f->placedStart, sizeof placedStart);
    const d4 c = (d4)(q[0]), s = (d4)(q[1]);
    const d4 p = {origin[0], origin[1], origin[0], origin[1]};
    const double *v = vertices + 2 * (ptrdiff_t)shapeStart, *n = normals + 2 * (ptrdiff_t)shapeStart;
    d4 v01 = K(rotate2)(K(load4)(v), c, s) + p, v23 = K(rotate2)(K(load4)(v + 4), c, s) + p;
    d4 n01 = K(rotate2)(K(load4)(n), c, s), n23 = K(rotate2)(K(load4)(n + 4), c, s);
    double *pv = placedVertices + 2 * (ptrdiff_t)placedStart, *pn = placedNormals + 2 * (ptrdiff_t)placedStart;
    K(store4)(pv, v01);
    K(store4)(pv + 4, v23);
    K(store4)(pn, n01);
    K(store4)(pn + 4, n23);
    // The bounds in vertex order, as the Swift loop folds them.
    d2 lo = (d2)(__builtin_inf()), hi = (d2)(-__builtin_inf());
    lo = K(min2)(lo, K(half)(v01, 0));
    hi = K(max2)(hi, K(half)(v01, 0));
    lo = K(min2)(lo, K(half)(v01, 1));
    hi = K(max2)(hi, K(half)(v01, 1));
    lo = K(min2)(lo, K(half)(v23, 0));
    hi = K(max2)(hi, K(half)(v23, 0));
    lo = K(min2)(lo, K(half)(v23, 1));
    hi = K(max2)(hi, K(half)(v23, 1));
    const d2 r = (d2)(radius + margin);
    d2 lower = lo - r, upper = hi + r;
    memcpy(b + f->lower, &lower, sizeof lower);
    memcpy(b + f->upper, &upper, sizeof upper);
    QixCollider *collider = colliders + index;
    memcpy(&collider->centerX, b + f->center, 2 * sizeof(double));
    memcpy(&collider->invMass, b + f->invMass, sizeof(double));
    memcpy(&collider->itemMask, b + f->itemMask, sizeof(uint64_t));
    collider->shapeStart = placedStart;
    collider->shapeCount = 4;
    collider->isBoundary = *(const uint8_t *)(b + f->isBoundary);
    collider->isRectangle = (uint8_t)K(is_box)(n01, n23);
}

void K(qix_place_boxes)(char *bodies, const QixBodyFields *fields, const int32_t *items, ptrdiff_t count,
                        const double *vertices, const double *normals, double *placedVertices, double *placedNormals,
                        double margin, QixCollider *colliders) {
    const QixBodyFields f = *fields;
    for (ptrdiff_t k = 0; k < count; k++) {
        char *b = bodies + (ptrdiff_t)items[k] * f.stride;
        int32_t shapeCount;
        memcpy(&shapeCount, b + f.shapeCount, sizeof shapeCount);
        if (shapeCount != 4) continue;
        K(place_box)(b, &f, items[k], vertices, normals, placedVertices, placedNormals, margin, colliders);
    }
}
