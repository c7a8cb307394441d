// The sub-step's body integration (include/BodyIntegration.h), built from one source for
// baseline x86-64 and, on x86-64, for AVX2, as the box manifolds are (BoxManifold.c).
//
// Bits: only +, -, *, /, square root, compares and selects, each the Swift code's operation on
// the same operands, and no fused multiply-add (contraction off below, no "fma" feature), so
// every build rounds like `World.integrateVelocities` and `World.integratePositions`
// (docs/determinism.md rule 9).
#pragma clang fp contract(off)
#pragma STDC FP_CONTRACT OFF

#include "CContactKernel.h"

#include <string.h>

typedef double d4 __attribute__((ext_vector_type(4)));
typedef int64_t m4 __attribute__((ext_vector_type(4)));

#define QIX_KERNEL "BodyIntegrationKernel.h"
#include "KernelBuilds.h"
