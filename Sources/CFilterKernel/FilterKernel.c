// QixAudio's polyphase resampling loop built twice from one source (PolyphaseRun.h): for
// baseline x86-64 and, on x86-64, for AVX2 (one 256-bit register per eight lanes, three-
// operand instructions). QixAudio picks one once (`qix_filter_avx2_supported`). No target
// flags in Package.swift: the AVX2 copy gets its instruction set from a function attribute,
// so the package stays usable as a dependency.
//
// Bits: only * and + in one fixed order and no fused multiply-add (contraction off below, the
// "fma" feature not enabled), so both copies give the same samples on every machine.
#pragma clang fp contract(off)
#pragma STDC FP_CONTRACT OFF

#include "CFilterKernel.h"

// The vector helpers are always_inline: no 256-bit vector crosses a call in the baseline build.
#pragma clang diagnostic ignored "-Wpsabi"

typedef float f8 __attribute__((ext_vector_type(8)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef float f2 __attribute__((ext_vector_type(2)));

#define K(name) name##_portable
#include "PolyphaseRun.h"
#undef K

#if defined(__x86_64__)

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#define K(name) name##_avx2
#include "PolyphaseRun.h"
#undef K
#pragma clang attribute pop

int32_t qix_filter_avx2_supported(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}

#else

void qix_polyphase_run_avx2(const float *samples, int64_t first, int64_t phase,
                            const float *table, int64_t taps, int64_t phases,
                            int64_t whole_step, int64_t phase_step,
                            float *out, int64_t count) {
    qix_polyphase_run_portable(samples, first, phase, table, taps, phases, whole_step, phase_step, out, count);
}

void qix_polyphase_run2_avx2(const float *left, const float *right, int64_t first, int64_t phase,
                             const float *table, int64_t taps, int64_t phases,
                             int64_t whole_step, int64_t phase_step,
                             float *out, int64_t count) {
    qix_polyphase_run2_portable(left, right, first, phase, table, taps, phases, whole_step, phase_step, out, count);
}

int32_t qix_filter_avx2_supported(void) { return 0; }

#endif
