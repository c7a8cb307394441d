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

typedef double d4 __attribute__((ext_vector_type(4)));
typedef int64_t m4 __attribute__((ext_vector_type(4)));
typedef int32_t i4 __attribute__((ext_vector_type(4)));

#define QIX_KERNEL "BroadPhaseCellsKernel.h"
#include "KernelBuilds.h"
