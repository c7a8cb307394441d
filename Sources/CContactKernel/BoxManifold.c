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

// Every helper in BoxManifoldKernel.h is always_inline, so no 256-bit vector crosses a call in
// the baseline build.
#pragma clang diagnostic ignored "-Wpsabi"

typedef double d4 __attribute__((ext_vector_type(4)));
typedef double d2 __attribute__((ext_vector_type(2)));
typedef int64_t m4 __attribute__((ext_vector_type(4)));

#define K(name) name##_portable
#include "BoxManifoldKernel.h"
#undef K

#if defined(__x86_64__)

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#define K(name) name##_avx2
#include "BoxManifoldKernel.h"
#undef K
#pragma clang attribute pop

// AVX-512's 32 registers for the same 256-bit lanes (contraction stays off: its FMA is unused).
#pragma clang attribute push(__attribute__((target("avx2,avx512f,avx512vl,avx512dq"))), apply_to = function)
#define K(name) name##_avx512
#include "BoxManifoldKernel.h"
#undef K
#pragma clang attribute pop

#else

// Elsewhere the x86 builds' names hold the baseline code (never picked, but they must link).
#define K(name) name##_avx2
#include "BoxManifoldKernel.h"
#undef K
#define K(name) name##_avx512
#include "BoxManifoldKernel.h"
#undef K

#endif
