// The step's placement of box shapes (include/BoxPlacement.h), built from one source for
// baseline x86-64 and, on x86-64, for AVX2, as the box manifolds are (BoxManifold.c).
//
// Bits: only +, -, *, compares and sign flips, each the Swift code's operation on the same
// operands (`Transform.apply`, `Rotation.rotate`, Swift's `min` and `max`), and no fused
// multiply-add (contraction off below, no "fma" feature), so every build rounds like
// `World.placeShapes` (docs/determinism.md rule 9).
#pragma clang fp contract(off)
#pragma STDC FP_CONTRACT OFF

#include "BoxPlacement.h"
#include "BoxContacts.h"

#include <string.h>

typedef double d4 __attribute__((ext_vector_type(4)));
typedef double d2 __attribute__((ext_vector_type(2)));
typedef int64_t m4 __attribute__((ext_vector_type(4)));
typedef int64_t m2 __attribute__((ext_vector_type(2)));

#define QIX_KERNEL "BoxPlacementKernel.h"
#include "KernelBuilds.h"
