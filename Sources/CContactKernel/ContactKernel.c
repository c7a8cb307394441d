// The contact solver's hot loops (ContactPasses.h: solve/relax pass, warm start fused with the
// solve pass; ContactFill.h: the per-step batch fill) built three times from one source: for
// baseline x86-64 and, on x86-64, for AVX2 (three-operand instructions, 256-bit registers: a
// batch's four lanes in one register) and for AVX-512 (the same 256-bit lanes, 32 registers).
// QixDynamics picks one once at start-up (`qix_contact_avx512_supported`,
// `qix_contact_avx2_supported`). No target flags in Package.swift: the AVX2 and AVX-512 copies
// get their instruction sets from function attributes, so the package stays usable as a dependency.
//
// Bits: only +, -, *, /, compares and bitwise selects, in the Swift code's order, and no fused
// multiply-add (contraction off below; the AVX2 build has no "fma" feature, and AVX-512's,
// implied by "avx512f", is then never used), so SSE2, AVX2, AVX-512 and the Swift kernel round
// every operation alike and agree bit for bit (docs/determinism.md).
#pragma clang fp contract(off)
#pragma STDC FP_CONTRACT OFF

#include "CContactKernel.h"

// Every helper in ContactPasses.h is always_inline, so no 256-bit vector crosses a call in
// the baseline build (the ABI difference -Wpsabi warns about never arises).
#pragma clang diagnostic ignored "-Wpsabi"

typedef double d4 __attribute__((ext_vector_type(4)));
typedef double d2 __attribute__((ext_vector_type(2)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef int64_t m4 __attribute__((ext_vector_type(4)));

#define K(name) name##_portable
#include "ContactPasses.h"
#include "ContactFill.h"
#undef K

#if defined(__x86_64__)

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#define K(name) name##_avx2
#include "ContactPasses.h"
#include "ContactFill.h"
#undef K
#pragma clang attribute pop

// The same 256-bit lanes with AVX-512's 32 registers (VL: EVEX forms of the 256-bit
// instructions; DQ: their double-precision bitwise ops): the AVX2 pass spills a batch's lane
// vectors to the stack, 130 of its 460 instructions a batch. The operations are the same
// IEEE ones (contraction stays off, so AVX-512's FMA is never used), so the same bits.
#pragma clang attribute push(__attribute__((target("avx2,avx512f,avx512vl,avx512dq"))), apply_to = function)
#define K(name) name##_avx512
#include "ContactPasses.h"
#include "ContactFill.h"
#undef K
#pragma clang attribute pop

int32_t qix_contact_avx2_supported(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}

int32_t qix_contact_avx512_supported(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")
                   && __builtin_cpu_supports("avx512dq")
               ? 1
               : 0;
}

#else

// Elsewhere the x86 builds' names hold the baseline code: the checks below never pick them,
// but QixDynamics names them, so they must link, and built from the same source they cannot
// drift from the portable build's signatures.
#define K(name) name##_avx2
#include "ContactPasses.h"
#include "ContactFill.h"
#undef K
#define K(name) name##_avx512
#include "ContactPasses.h"
#include "ContactFill.h"
#undef K

int32_t qix_contact_avx2_supported(void) { return 0; }

int32_t qix_contact_avx512_supported(void) { return 0; }

#endif
