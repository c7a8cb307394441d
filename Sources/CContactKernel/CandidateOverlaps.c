// The broad phase's candidate overlaps (include/CandidateOverlaps.h), built from one source for
// baseline x86-64 and, on x86-64, for AVX2, as the box manifolds are (BoxManifold.c).
//
// Bits: only comparisons of the Swift code's operands (`BroadPhase.apart`), so every build
// gives the Swift code's overlap bits (docs/determinism.md rule 9).
#include "CandidateOverlaps.h"

#include <string.h>

typedef double d4 __attribute__((ext_vector_type(4)));
typedef double d2 __attribute__((ext_vector_type(2)));
typedef int64_t m4 __attribute__((ext_vector_type(4)));

#define QIX_KERNEL "CandidateOverlapsKernel.h"
#include "KernelBuilds.h"
