// Where the C code finds the fields of a Swift `Body` record (World.swift, Body.swift), for the
// step's placements (BoxPlacement.h, BodyPlacement.h).
#ifndef C_BODY_FIELDS_H
#define C_BODY_FIELDS_H

#include <stddef.h>

/// Byte offsets of the `Body` fields the C code reads and writes, and the records' stride,
/// taken from Swift's `MemoryLayout` at run time (`BodyFields.swift`): the C code does not
/// assume Swift's struct layout.
typedef struct QixBodyFields {
    ptrdiff_t stride;
    /// origin (x, y), q (c, s), center (x, y), lower (x, y), upper (x, y), localCenter (x, y),
    /// center0 (x, y), force (x, y): two doubles each.
    ptrdiff_t origin, rotation, center, lower, upper, localCenter, center0, force;
    /// angle, angle0, torque, radius, invMass: a double each; itemMask: a uint64_t;
    /// shapeStart, shapeCount, placedStart: an int32_t each; isBoundary: a byte.
    ptrdiff_t angle, angle0, torque, radius, invMass, itemMask, shapeStart, shapeCount, placedStart, isBoundary;
} QixBodyFields;

#endif
