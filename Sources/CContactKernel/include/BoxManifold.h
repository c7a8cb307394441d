// The narrow phase's box-against-box manifolds in C, for QixDynamics (World+Collision.swift):
// `Collide.clipPolygons` specialised to two rectangles and run four pairs at a time in lanes,
// with the same IEEE operations in the same order per lane, so it gives the Swift reference's
// bits (docs/determinism.md, rule 9).
#ifndef C_BOX_MANIFOLD_H
#define C_BOX_MANIFOLD_H

#include <stddef.h>
#include <stdint.h>

/// The manifold of one pair of boxes (Swift `Manifold`, 12 words): the normal from box A to
/// box B, the point count (0...2), and up to two
/// points (the midpoint between the surfaces, the signed separation, the feature id that
/// matches it with last step's point).
typedef struct QixBoxManifold {
    double normalX, normalY;
    int64_t count;
    double x0, y0, separation0;
    int64_t id0;
    double x1, y1, separation1;
    int64_t id1;
    int64_t unused;
} QixBoxManifold;

/// `Collide.clipPolygons` for `count` pairs of rectangles placed in the world, four at a
/// time: pair k's shapes start at (x, y) pair `starts[2 k]` (A) and `starts[2 k + 1]` (B) of
/// `vertices` and of `normals` (four counter-clockwise vertices and outward normals each, and
/// both must be rectangles: n2 = -n0 and n3 = -n1 bit for bit, `Collide.isBox`); `margin` is
/// the speculative distance, `flipTolerance` `0.1 * linearSlop`. Writes `out[k]`, the Swift
/// code's manifold bit for bit (count 0 when the boxes are apart; the normal and points are
/// then unspecified, as is the second point of a one-point manifold).
typedef void (*QixBoxManifoldsFunction)(const double *vertices, const double *normals, const int32_t *starts,
                                        ptrdiff_t count, double margin, double flipTolerance, QixBoxManifold *out);

/// The box manifolds compiled for baseline x86-64 (or for the target elsewhere).
void qix_box_manifolds_portable(const double *vertices, const double *normals, const int32_t *starts, ptrdiff_t count,
                                double margin, double flipTolerance, QixBoxManifold *out);

/// The same compiled for AVX2 (x86-64 only; elsewhere the portable one). Call it only when
/// `qix_contact_avx2_supported()` says so.
void qix_box_manifolds_avx2(const double *vertices, const double *normals, const int32_t *starts, ptrdiff_t count,
                            double margin, double flipTolerance, QixBoxManifold *out);

/// The same compiled for AVX-512 (F, VL, DQ; 32 vector registers), x86-64 only, elsewhere the
/// portable one. Call it only when `qix_contact_avx512_supported()` says so.
void qix_box_manifolds_avx512(const double *vertices, const double *normals, const int32_t *starts,
                              ptrdiff_t count, double margin, double flipTolerance, QixBoxManifold *out);

#endif
