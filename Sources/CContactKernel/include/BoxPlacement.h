// The step's placement of box shapes in C, for QixDynamics (World+Collision.swift,
// BoxPlacement.swift): what `World.placeShapes` does for an item with four vertices (its shape
// turned and moved into the world, its bounding box, its collider), with the same IEEE operations
// in the same order, so the same bits (docs/determinism.md, rule 9).
#ifndef C_BOX_PLACEMENT_H
#define C_BOX_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

#include "BodyFields.h"

// `QixCollider` (BoxContacts.h) by its tag: BoxContacts.h reaches this header through
// CContactKernel.h before it defines the type.
struct QixCollider;

/// Places the shapes of the bodies `items[0..<count]` (indices into `bodies`) that have four
/// vertices, skipping the others: vertex and normal k of the shape at `shapeStart` of
/// `vertices` and `normals` (body frame, (x, y) pairs), turned by the body's rotation (and the
/// vertex moved by its origin), go to `placedStart + k` of `placedVertices` and
/// `placedNormals`; the body's `lower` and `upper` become the placed vertices' bounds grown by
/// its radius plus `margin`; `colliders[index]` becomes its `Collider`.
typedef void (*QixBoxPlacementFunction)(char *bodies, const QixBodyFields *fields, const int32_t *items,
                                        ptrdiff_t count, const double *vertices, const double *normals,
                                        double *placedVertices, double *placedNormals, double margin,
                                        struct QixCollider *colliders);

/// The box placement compiled for baseline x86-64 (or for the target elsewhere).
void qix_place_boxes_portable(char *bodies, const QixBodyFields *fields, const int32_t *items, ptrdiff_t count,
                              const double *vertices, const double *normals, double *placedVertices,
                              double *placedNormals, double margin, struct QixCollider *colliders);

/// The same compiled for AVX2 (x86-64 only; elsewhere the portable one). Call it only when
/// `qix_contact_avx2_supported()` says so.
void qix_place_boxes_avx2(char *bodies, const QixBodyFields *fields, const int32_t *items, ptrdiff_t count,
                          const double *vertices, const double *normals, double *placedVertices,
                          double *placedNormals, double margin, struct QixCollider *colliders);

#endif
