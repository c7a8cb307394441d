#ifndef QIX_FILTER_KERNEL_H
#define QIX_FILTER_KERNEL_H

#include <stdint.h>

/// Runs `count` outputs of a polyphase FIR filter (QixAudio.PolyphaseResampler): output n is
/// the dot product of `taps` samples from `samples + first + offset(n)` with row `phase(n)` of
/// `table` (`taps` floats per row, `taps` a multiple of 8), where the offset advances by
/// `whole_step` per output and the phase by `phase_step`, carrying into the offset past
/// `phases`. Baseline x86-64 build; identical results to the AVX2 build.
void qix_polyphase_run_portable(const float *samples, int64_t first, int64_t phase,
                                const float *table, int64_t taps, int64_t phases,
                                int64_t whole_step, int64_t phase_step,
                                float *out, int64_t count);

/// The same loop built for AVX2 (call only where `qix_filter_avx2_supported` says so).
void qix_polyphase_run_avx2(const float *samples, int64_t first, int64_t phase,
                            const float *table, int64_t taps, int64_t phases,
                            int64_t whole_step, int64_t phase_step,
                            float *out, int64_t count);

/// Two channels through the same loop in one pass (`left` and `right` indexed alike), outputs
/// written interleaved: out[2n] from `left`, out[2n + 1] from `right`, each bit for bit what
/// `qix_polyphase_run_portable` gives for that channel alone. Baseline x86-64 build.
void qix_polyphase_run2_portable(const float *left, const float *right, int64_t first, int64_t phase,
                                 const float *table, int64_t taps, int64_t phases,
                                 int64_t whole_step, int64_t phase_step,
                                 float *out, int64_t count);

/// The two-channel loop built for AVX2 (call only where `qix_filter_avx2_supported` says so).
void qix_polyphase_run2_avx2(const float *left, const float *right, int64_t first, int64_t phase,
                             const float *table, int64_t taps, int64_t phases,
                             int64_t whole_step, int64_t phase_step,
                             float *out, int64_t count);

/// 1 if this CPU runs the AVX2 build, else 0 (always 0 off x86-64).
int32_t qix_filter_avx2_supported(void);

#endif
