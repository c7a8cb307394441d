// The builds of one lane kernel, included by its .c file after it defines QIX_KERNEL as the
// kernel header's name ("BodyIntegrationKernel.h", ...) and the vector types the kernel uses:
// the kernel's functions K(name) come out as name_portable (baseline x86-64, or the machine's
// own baseline elsewhere) and name_avx2 (x86-64 with AVX2), and with QIX_KERNEL_AVX512 defined
// also as name_avx512 (AVX-512's 32 registers for the same 256-bit lanes; contraction stays
// off, so its FMA is unused).

// Every helper in a kernel header is always_inline, so no 256-bit vector crosses a call in the
// baseline build.
#pragma clang diagnostic ignored "-Wpsabi"

#define K(name) name##_portable
#include QIX_KERNEL
#undef K

#if defined(__x86_64__)

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#define K(name) name##_avx2
#include QIX_KERNEL
#undef K
#pragma clang attribute pop

#if defined(QIX_KERNEL_AVX512)
#pragma clang attribute push(__attribute__((target("avx2,avx512f,avx512vl,avx512dq"))), apply_to = function)
#define K(name) name##_avx512
#include QIX_KERNEL
#undef K
#pragma clang attribute pop
#endif

#else

// Elsewhere the x86 builds' names hold the baseline code (never picked, but they must link).
#define K(name) name##_avx2
#include QIX_KERNEL
#undef K
#if defined(QIX_KERNEL_AVX512)
#define K(name) name##_avx512
#include QIX_KERNEL
#undef K
#endif

#endif
