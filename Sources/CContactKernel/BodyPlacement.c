// The step's placements of the moving items (include/BodyPlacement.h), built from one source
// for baseline x86-64 and, on x86-64, for AVX2, as the box manifolds are (BoxManifold.c).
//
// Bits: only +, -, *, rounding to the nearest even integer, compares and selects, each the
// Swift code's operation on the same operands (`World.finalizePlacements`,
// `DeterministicMath.sinCos` and its kernels), and no fused multiply-add (contraction off
// below, no "fma" feature), so every build rounds like the Swift code (docs/determinism.md
// rule 9).
#pragma clang fp contract(off)
#pragma STDC FP_CONTRACT OFF

#include "CContactKernel.h"

#include <stddef.h>
#include <string.h>

typedef double d4 __attribute__((ext_vector_type(4)));
typedef int64_t m4 __attribute__((ext_vector_type(4)));

#define QIX_KERNEL "BodyPlacementKernel.h"
#include "KernelBuilds.h"
