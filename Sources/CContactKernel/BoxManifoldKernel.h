// `Collide.clipPolygons` for pairs of rectangles, four pairs at a time (one per lane), included
// once per build by BoxManifold.c with `K(name)` giving the names their suffix. Each lane does
// the Swift code's operations on its pair, operand for operand: `a.dot(b)` is
// `a.x * b.x + a.y * b.y`, a Double's or Vector2's prefix minus is a sign flip (C's unary minus
// here), every `if` of the Swift code is a select on the same comparison, and the comparison
// chains (`d < low`, `s > max`, ...) pick the same value and index in the same order. Branches
// of the Swift code that end early only clear the lane's count here; what the lane computes
// after that is never stored. Do not reorder or "simplify" an expression here without doing the
// same in Collide.swift (docs/determinism.md rule 9).

static inline __attribute__((always_inline)) d2 K(ld2)(const double *p) {
    d2 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

static inline __attribute__((always_inline)) void K(st)(double *p, d4 v) { __builtin_memcpy(p, &v, sizeof v); }

/// `m ? a : b` lane by lane, as bits.
static inline __attribute__((always_inline)) d4 K(sel)(m4 m, d4 a, d4 b) {
    return (d4)((m & (m4)a) | (~m & (m4)b));
}

static inline __attribute__((always_inline)) m4 K(seli)(m4 m, m4 a, m4 b) { return (m & a) | (~m & b); }

/// Point k of four lanes' shapes (`base[l]` the lane's first (x, y) pair), as x and y lanes.
static inline __attribute__((always_inline)) void K(gather2)(const double *const base[4], int k, d4 *x, d4 *y) {
    d2 a0 = K(ld2)(base[0] + 2 * k), a1 = K(ld2)(base[1] + 2 * k);
    d2 a2 = K(ld2)(base[2] + 2 * k), a3 = K(ld2)(base[3] + 2 * k);
    d4 t0 = __builtin_shufflevector(a0, a2, 0, 1, 2, 3);
    d4 t1 = __builtin_shufflevector(a1, a3, 0, 1, 2, 3);
    *x = __builtin_shufflevector(t0, t1, 0, 4, 2, 6);
    *y = __builtin_shufflevector(t0, t1, 1, 5, 3, 7);
}

/// The (x, y) pairs at four lanes' own addresses, as x and y lanes.
static inline __attribute__((always_inline)) void K(gather_at)(const double *p0, const double *p1, const double *p2,
                                                              const double *p3, d4 *x, d4 *y) {
    d2 a0 = K(ld2)(p0), a1 = K(ld2)(p1), a2 = K(ld2)(p2), a3 = K(ld2)(p3);
    d4 t0 = __builtin_shufflevector(a0, a2, 0, 1, 2, 3);
    d4 t1 = __builtin_shufflevector(a1, a3, 0, 1, 2, 3);
    *x = __builtin_shufflevector(t0, t1, 0, 4, 2, 6);
    *y = __builtin_shufflevector(t0, t1, 1, 5, 3, 7);
}

/// Point `index[l]` of each lane's shape at `base[l]`.
static inline __attribute__((always_inline)) void K(gather_points)(const double *const base[4], const int64_t index[4],
                                                                  d4 *x, d4 *y) {
    K(gather_at)(base[0] + 2 * index[0], base[1] + 2 * index[1], base[2] + 2 * index[2], base[3] + 2 * index[3], x, y);
}

/// Four points (vertices or normals) of four lanes' boxes.
typedef struct {
    d4 x[4], y[4];
} K(Quad);

static inline __attribute__((always_inline)) K(Quad) K(load_quad)(const double *const base[4]) {
    K(Quad) q;
    for (int k = 0; k < 4; k++) K(gather2)(base, k, &q.x[k], &q.y[k]);
    return q;
}

/// `Collide.boxSeparation`'s `range`: the smallest and largest of n · v[j], by the Swift chains.
static inline __attribute__((always_inline)) void K(range)(d4 nx, d4 ny, const K(Quad) *v, d4 *low, d4 *high) {
    d4 lo = (d4)(__builtin_inf()), hi = (d4)(-__builtin_inf());
    for (int j = 0; j < 4; j++) {
        d4 d = nx * v->x[j] + ny * v->y[j];
        lo = K(sel)(d < lo, d, lo);
        hi = K(sel)(d > hi, d, hi);
    }
    *low = lo;
    *high = hi;
}

/// `Collide.boxSeparation`: the edge of box 1 (vertices `v1`, first two normals `n0`, `n1`)
/// farthest from box 2's vertices, and its separation. Normals 2 and 3 of a rectangle are -n0
/// and -n1 bit for bit, so n2 · v and n3 · v are the exact negations of n0 · v and n1 · v.
static inline __attribute__((always_inline)) m4 K(separation)(const K(Quad) *v1, d4 n0x, d4 n0y, d4 n1x, d4 n1y,
                                                             const K(Quad) *v2, d4 *separation) {
    d4 low0, high0, low1, high1;
    K(range)(n0x, n0y, v2, &low0, &high0);
    K(range)(n1x, n1y, v2, &low1, &high1);
    d4 s[4];
    s[0] = low0 - (n0x * v1->x[0] + n0y * v1->y[0]);
    s[1] = low1 - (n1x * v1->x[1] + n1y * v1->y[1]);
    s[2] = -high0 - -(n0x * v1->x[2] + n0y * v1->y[2]);
    s[3] = -high1 - -(n1x * v1->x[3] + n1y * v1->y[3]);
    m4 best = (m4)(0);
    d4 max = (d4)(-__builtin_inf());
    for (int k = 0; k < 4; k++) {
        m4 more = s[k] > max;
        max = K(sel)(more, s[k], max);
        best = K(seli)(more, (m4)((int64_t)k), best);
    }
    *separation = max;
    return best;
}

/// Four lanes of `Collide.ClipVertex`.
typedef struct {
    d4 x, y;
    m4 id;
} K(Clip);

/// `Collide.clip`: the segment v0-v1 clipped to the half-plane (nx, ny) · v <= offset, with
/// how many vertices remain.
static inline __attribute__((always_inline)) m4 K(clip)(K(Clip) v0, K(Clip) v1, d4 nx, d4 ny, d4 offset, m4 clipID,
                                                       K(Clip) *out0, K(Clip) *out1) {
    const d4 zero = (d4)(0.0);
    d4 d0 = (nx * v0.x + ny * v0.y) - offset;
    d4 d1 = (nx * v1.x + ny * v1.y) - offset;
    m4 in0 = d0 <= zero, in1 = d1 <= zero;
    // out0 = v0; out1 = v1; count = in0 ? 1 : 0; if in1 { count == 0 ? out0 = v1 : out1 = v1 }.
    m4 firstIsV1 = ~in0 & in1;
    K(Clip) o0 = {K(sel)(firstIsV1, v1.x, v0.x), K(sel)(firstIsV1, v1.y, v0.y), K(seli)(firstIsV1, v1.id, v0.id)};
    K(Clip) o1 = v1;
    m4 count = (in0 & (m4)(1)) + (in1 & (m4)(1));
    // The crossing point replaces out0 (count 0) or out1 (count 1).
    m4 cross = (d0 * d1 < zero) & (count < (m4)(2));
    d4 t = d0 / (d0 - d1);
    K(Clip) p = {v0.x + t * (v1.x - v0.x), v0.y + t * (v1.y - v0.y), clipID};
    m4 toFirst = cross & (count == (m4)(0)), toSecond = cross & ~(count == (m4)(0));
    o0.x = K(sel)(toFirst, p.x, o0.x);
    o0.y = K(sel)(toFirst, p.y, o0.y);
    o0.id = K(seli)(toFirst, p.id, o0.id);
    o1.x = K(sel)(toSecond, p.x, o1.x);
    o1.y = K(sel)(toSecond, p.y, o1.y);
    o1.id = K(seli)(toSecond, p.id, o1.id);
    *out0 = o0;
    *out1 = o1;
    return count + (cross & (m4)(1));
}

/// Writes lanes `0..<valid` of four manifolds: the 12 words of each record are three 4 x 4
/// transposes of the field lanes.
static inline __attribute__((always_inline)) void K(store)(QixBoxManifold *out, int valid, const d4 f[12]) {
    double words[4][12];
    for (int g = 0; g < 3; g++) {
        d4 a = f[4 * g], b = f[4 * g + 1], c = f[4 * g + 2], d = f[4 * g + 3];
        d4 ab0 = __builtin_shufflevector(a, b, 0, 4, 2, 6), ab1 = __builtin_shufflevector(a, b, 1, 5, 3, 7);
        d4 cd0 = __builtin_shufflevector(c, d, 0, 4, 2, 6), cd1 = __builtin_shufflevector(c, d, 1, 5, 3, 7);
        d4 r0 = __builtin_shufflevector(ab0, cd0, 0, 1, 4, 5), r2 = __builtin_shufflevector(ab0, cd0, 2, 3, 6, 7);
        d4 r1 = __builtin_shufflevector(ab1, cd1, 0, 1, 4, 5), r3 = __builtin_shufflevector(ab1, cd1, 2, 3, 6, 7);
        if (valid == 4) {
            K(st)((double *)(out + 0) + 4 * g, r0);
            K(st)((double *)(out + 1) + 4 * g, r1);
            K(st)((double *)(out + 2) + 4 * g, r2);
            K(st)((double *)(out + 3) + 4 * g, r3);
        } else {
            K(st)(words[0] + 4 * g, r0);
            K(st)(words[1] + 4 * g, r1);
            K(st)(words[2] + 4 * g, r2);
            K(st)(words[3] + 4 * g, r3);
        }
    }
    if (valid < 4) {
        for (int l = 0; l < valid; l++) __builtin_memcpy(out + l, words[l], sizeof words[l]);
    }
}

/// Four lanes' pairs of boxes: where each lane's shapes start, their vertices, and the first two
/// normals of each box (normals 2 and 3 of a rectangle are -n0 and -n1 bit for bit).
typedef struct {
    const double *vaBase[4], *naBase[4], *vbBase[4], *nbBase[4];
    K(Quad) va, vb;
    d4 na0x, na0y, na1x, na1y, nb0x, nb0y, nb1x, nb1y;
} K(Pairs);

/// Loads the pairs at `starts` (two per pair) into lanes; lanes past `valid` repeat the last
/// pair (computed, not stored).
static inline __attribute__((always_inline)) void K(load_pairs)(const double *vertices, const double *normals,
                                                               const int32_t *starts, int valid, K(Pairs) *p) {
    for (int l = 0; l < 4; l++) {
        const int32_t *s = starts + 2 * (l < valid ? l : valid - 1);
        p->vaBase[l] = vertices + 2 * (ptrdiff_t)s[0];
        p->naBase[l] = normals + 2 * (ptrdiff_t)s[0];
        p->vbBase[l] = vertices + 2 * (ptrdiff_t)s[1];
        p->nbBase[l] = normals + 2 * (ptrdiff_t)s[1];
    }
    p->va = K(load_quad)(p->vaBase);
    p->vb = K(load_quad)(p->vbBase);
    K(gather2)(p->naBase, 0, &p->na0x, &p->na0y);
    K(gather2)(p->naBase, 1, &p->na1x, &p->na1y);
    K(gather2)(p->nbBase, 0, &p->nb0x, &p->nb0y);
    K(gather2)(p->nbBase, 1, &p->nb1x, &p->nb1y);
}

/// The reference face of four lanes, as `Collide.clipPolygons` picks it.
typedef struct {
    /// All ones where neither box's farthest edge is beyond the margin.
    m4 alive;
    /// All ones where box B holds the reference edge (the manifold's normal is flipped).
    m4 flip;
    /// The reference edge's vertex indices in its box.
    m4 edge1, edge2;
} K(Reference);

/// The edge of each box farthest from the other, and which of the two is the reference edge
/// (B's only when it is farther by more than `flipTolerance`).
static inline __attribute__((always_inline)) K(Reference) K(reference_face)(const K(Pairs) *p, double margin,
                                                                           double flipTolerance) {
    d4 separationA, separationB;
    m4 edgeA = K(separation)(&p->va, p->na0x, p->na0y, p->na1x, p->na1y, &p->vb, &separationA);
    m4 edgeB = K(separation)(&p->vb, p->nb0x, p->nb0y, p->nb1x, p->nb1y, &p->va, &separationB);
    const d4 marginLanes = (d4)(margin);
    K(Reference) r;
    r.alive = ~(separationA > marginLanes) & ~(separationB > marginLanes);
    r.flip = separationB > separationA + (d4)(flipTolerance);
    r.edge1 = K(seli)(r.flip, edgeB, edgeA);
    r.edge2 = (r.edge1 + 1) & (m4)(3);
    return r;
}

/// The incident edge's first vertex index: the smallest refNormal · incN[i], first of equals.
/// The reference normal is n0, n1, -n0 or -n1 of the reference box (bit for bit), and the
/// incident products with normals 2 and 3 are the exact negations of those with 0 and 1.
static inline __attribute__((always_inline)) m4 K(incident_edge)(const K(Pairs) *p, const K(Reference) *r) {
    m4 flip = r->flip;
    d4 ref0x = K(sel)(flip, p->nb0x, p->na0x), ref0y = K(sel)(flip, p->nb0y, p->na0y);
    d4 ref1x = K(sel)(flip, p->nb1x, p->na1x), ref1y = K(sel)(flip, p->nb1y, p->na1y);
    d4 inc0x = K(sel)(flip, p->na0x, p->nb0x), inc0y = K(sel)(flip, p->na0y, p->nb0y);
    d4 inc1x = K(sel)(flip, p->na1x, p->nb1x), inc1y = K(sel)(flip, p->na1y, p->nb1y);
    m4 odd = (r->edge1 & (m4)(1)) != (m4)(0), opposite = r->edge1 >= (m4)(2);
    d4 rnx = K(sel)(odd, ref1x, ref0x), rny = K(sel)(odd, ref1y, ref0y);
    rnx = K(sel)(opposite, -rnx, rnx);
    rny = K(sel)(opposite, -rny, rny);
    d4 dots[4];
    dots[0] = rnx * inc0x + rny * inc0y;
    dots[1] = rnx * inc1x + rny * inc1y;
    dots[2] = -dots[0];
    dots[3] = -dots[1];
    m4 i1 = (m4)(0);
    d4 minDot = (d4)(__builtin_inf());
    for (int i = 0; i < 4; i++) {
        m4 less = dots[i] < minDot;
        minDot = K(sel)(less, dots[i], minDot);
        i1 = K(seli)(less, (m4)((int64_t)i), i1);
    }
    return i1;
}

/// The two edges the clipping needs: the incident edge as clip vertices (with their feature
/// ids) and the reference edge's vertices v11 and v12.
typedef struct {
    K(Clip) incident0, incident1;
    d4 v11x, v11y, v12x, v12y;
    /// The feature-id bits of the reference edge (its box, its index).
    m4 edgeBits;
} K(Edges);

/// Reads the four vertices of the two edges from memory (first-level cache) at each lane's own
/// indices rather than selecting them out of all eight.
static inline __attribute__((always_inline)) void K(load_edges)(const K(Pairs) *p, const K(Reference) *r, m4 i1,
                                                               K(Edges) *e) {
    m4 i2 = (i1 + 1) & (m4)(3);
    int64_t flips[4], e1[4], e2[4], i1s[4], i2s[4];
    __builtin_memcpy(flips, &r->flip, sizeof flips);
    __builtin_memcpy(e1, &r->edge1, sizeof e1);
    __builtin_memcpy(e2, &r->edge2, sizeof e2);
    __builtin_memcpy(i1s, &i1, sizeof i1s);
    __builtin_memcpy(i2s, &i2, sizeof i2s);
    const double *refV[4], *incV[4];
    for (int l = 0; l < 4; l++) {
        refV[l] = flips[l] ? p->vbBase[l] : p->vaBase[l];
        incV[l] = flips[l] ? p->vaBase[l] : p->vbBase[l];
    }
    m4 flipBit = r->flip & (m4)((int64_t)1 << 31);
    e->edgeBits = flipBit | r->edge1 << 16;
    K(gather_points)(incV, i1s, &e->incident0.x, &e->incident0.y);
    K(gather_points)(incV, i2s, &e->incident1.x, &e->incident1.y);
    e->incident0.id = e->edgeBits | i1;
    e->incident1.id = e->edgeBits | i2;
    K(gather_points)(refV, e1, &e->v11x, &e->v11y);
    K(gather_points)(refV, e2, &e->v12x, &e->v12y);
}

/// Clips the incident edge to the sides of the reference edge, keeps the points within the
/// margin of its front (moved halfway to it) and writes lanes `0..<valid` of the manifolds.
static inline __attribute__((always_inline)) void K(clip_and_store)(const K(Edges) *e, const K(Reference) *r,
                                                                   double margin, int valid, QixBoxManifold *out) {
    // Vector2.normalized (zero below 1e-300).
    d4 ex = e->v12x - e->v11x, ey = e->v12y - e->v11y;
    d4 length = __builtin_elementwise_sqrt(ex * ex + ey * ey);
    m4 tiny = length < (d4)(1e-300);
    d4 inv = (d4)(1.0) / length;
    d4 tx = K(sel)(tiny, (d4)(0.0), ex * inv), ty = K(sel)(tiny, (d4)(0.0), ey * inv);
    d4 nx = ty, ny = -tx;  // rightPerpendicular
    d4 frontOffset = nx * e->v11x + ny * e->v11y;
    d4 sideOffset1 = -(tx * e->v11x + ty * e->v11y);
    d4 sideOffset2 = tx * e->v12x + ty * e->v12y;

    m4 clipBase = e->edgeBits | (m4)((int64_t)1 << 30);
    K(Clip) c0, c1, d0, d1;
    m4 n1 = K(clip)(e->incident0, e->incident1, -tx, -ty, sideOffset1, clipBase | (m4)(0x100), &c0, &c1);
    m4 n2 = K(clip)(c0, c1, tx, ty, sideOffset2, clipBase | (m4)(0x200), &d0, &d1);
    m4 alive = r->alive & (n1 >= (m4)(2)) & (n2 >= (m4)(2));

    const d4 marginLanes = (d4)(margin);
    d4 s0 = (nx * d0.x + ny * d0.y) - frontOffset;
    d4 s1 = (nx * d1.x + ny * d1.y) - frontOffset;
    m4 keep0 = s0 <= marginLanes, keep1 = s1 <= marginLanes;
    d4 h0 = (d4)(0.5) * s0, h1 = (d4)(0.5) * s1;
    d4 p0x = d0.x - h0 * nx, p0y = d0.y - h0 * ny;
    d4 p1x = d1.x - h1 * nx, p1y = d1.y - h1 * ny;
    // The first kept point comes first; the second slot only matters with two.
    m4 counts = alive & ((keep0 & (m4)(1)) + (keep1 & (m4)(1)));
    m4 flip = r->flip;
    d4 f[12] = {
        K(sel)(flip, -nx, nx), K(sel)(flip, -ny, ny), (d4)counts, K(sel)(keep0, p0x, p1x),
        K(sel)(keep0, p0y, p1y), K(sel)(keep0, s0, s1), (d4)K(seli)(keep0, d0.id, d1.id), p1x,
        p1y, s1, (d4)d1.id, (d4)(0.0),
    };
    K(store)(out, valid, f);
}

void K(qix_box_manifolds)(const double *vertices, const double *normals, const int32_t *starts, ptrdiff_t count,
                          double margin, double flipTolerance, QixBoxManifold *out) {
    for (ptrdiff_t first = 0; first < count; first += 4) {
        int valid = count - first < 4 ? (int)(count - first) : 4;
        K(Pairs) pairs;
        K(load_pairs)(vertices, normals, starts + 2 * first, valid, &pairs);
        K(Reference) reference = K(reference_face)(&pairs, margin, flipTolerance);
        m4 incident = K(incident_edge)(&pairs, &reference);
        K(Edges) edges;
        K(load_edges)(&pairs, &reference, incident, &edges);
        K(clip_and_store)(&edges, &reference, margin, valid, out + first);
    }
}
