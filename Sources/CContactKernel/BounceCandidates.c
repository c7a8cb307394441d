// The restitution pass's batch test (include/BounceCandidates.h), built from one source for
// baseline x86-64 and, on x86-64, for AVX2, as the box manifolds are (BoxManifold.c).
//
// Bits: only exact widenings of the batches' `Float` lanes and comparisons, each the Swift
// code's on the same operands, so every build picks the batches the Swift loop picks
// (docs/determinism.md rule 9).
#include "CContactKernel.h"

#include <string.h>

// Every helper in BounceCandidatesKernel.h is always_inline, so no 256-bit vector crosses a
// call in the baseline build.
#pragma clang diagnostic ignored "-Wpsabi"

typedef double d4 __attribute__((ext_vector_type(4)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef int64_t m4 __attribute__((ext_vector_type(4)));

#define K(name) name##_portable
#include "BounceCandidatesKernel.h"
#undef K

#if defined(__x86_64__)

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#define K(name) name##_avx2
#include "BounceCandidatesKernel.h"
#undef K
#pragma clang attribute pop

#else

// Elsewhere the x86 build's name holds the baseline code (never picked, but it must link).
#define K(name) name##_avx2
#include "BounceCandidatesKernel.h"
#undef K

#endif
