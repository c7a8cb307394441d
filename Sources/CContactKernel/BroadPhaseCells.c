// The broad phase's boxes and cells (include/BroadPhaseCells.h), built from one source for
// baseline x86-64 and, on x86-64, for AVX2, as the box manifolds are (BoxManifold.c).
//
// Bits: one multiplication, compares and selects, truncation to an integer and its conversion
// back, each the Swift code's operation on the same operands (`BroadPhase.cell`), so every
// build gives the Swift code's cells (docs/determinism.md rule 9).
#pragma clang fp contract(off)
#pragma STDC FP_CONTRACT OFF

#include "BroadPhaseCells.h"

#include <string.h>

// Every helper in BroadPhaseCellsKernel.h is always_inline, so no 256-bit vector crosses a
// call in the baseline build.
#pragma clang diagnostic ignored "-Wpsabi"

typedef double d4 __attribute__((ext_vector_type(4)));
typedef int64_t m4 __attribute__((ext_vector_type(4)));
typedef int32_t i4 __attribute__((ext_vector_type(4)));

#define K(name) name##_portable
#include "BroadPhaseCellsKernel.h"
#undef K

#if defined(__x86_64__)

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#define K(name) name##_avx2
#include "BroadPhaseCellsKernel.h"
#undef K
#pragma clang attribute pop

#else

// Elsewhere the x86 build's name holds the baseline code (never picked, but it must link).
#define K(name) name##_avx2
#include "BroadPhaseCellsKernel.h"
#undef K

#endif
