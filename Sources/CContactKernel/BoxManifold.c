// The narrow phase's box-against-box manifolds, four pairs in lanes (BoxManifoldKernel.h),
// built from one source as the contact kernel is (ContactKernel.c): for baseline x86-64 and,
// on x86-64, for AVX2 (a lane vector in one register, three-operand instructions) and AVX-512.
// QixDynamics picks one once at start-up with the contact kernel.
//
// Bits: only +, -, *, /, square root, compares and sign flips, in the Swift code's order, and
// no fused multiply-add (contraction off below, no "fma" feature), so every build rounds like
// `Collide.clipPolygons` (docs/determinism.md rule 9).
#pragma clang fp contract(off)
#pragma STDC FP_CONTRACT OFF

#include "BoxManifold.h"

typedef double d4 __attribute__((ext_vector_type(4)));
typedef double d2 __attribute__((ext_vector_type(2)));
typedef int64_t m4 __attribute__((ext_vector_type(4)));

#define QIX_KERNEL "BoxManifoldKernel.h"
#define QIX_KERNEL_AVX512
#include "KernelBuilds.h"
