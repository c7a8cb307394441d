// The restitution pass's batch test (include/BounceCandidates.h), built from one source for
// baseline x86-64 and, on x86-64, for AVX2, as the box manifolds are (BoxManifold.c).
//
// Bits: only exact widenings of the batches' `Float` lanes and comparisons, each the Swift
// code's on the same operands, so every build picks the batches the Swift loop picks
// (docs/determinism.md rule 9).
#include "CContactKernel.h"

#include <string.h>

typedef double d4 __attribute__((ext_vector_type(4)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef int64_t m4 __attribute__((ext_vector_type(4)));

#define QIX_KERNEL "BounceCandidatesKernel.h"
#include "KernelBuilds.h"
