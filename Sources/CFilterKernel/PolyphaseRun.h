// The polyphase FIR loop, included twice by FilterKernel.c with `K(name)` naming the copy.
// Eight-lane vectors in both copies (two SSE registers each in the baseline build), two
// accumulators, and a fixed reduction order: every copy rounds alike.

static inline __attribute__((always_inline)) f8 K(load8)(const float *p) {
    f8 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

void K(qix_polyphase_run)(const float *samples, int64_t first, int64_t phase,
                          const float *table, int64_t taps, int64_t phases,
                          int64_t whole_step, int64_t phase_step,
                          float *out, int64_t count) {
    const float *x0 = samples + first;
    for (int64_t n = 0; n < count; n++) {
        const float *h = table + phase * taps;
        f8 even = 0, odd = 0;
        int64_t k = 0;
        for (; k + 16 <= taps; k += 16) {
            even += K(load8)(x0 + k) * K(load8)(h + k);
            odd += K(load8)(x0 + k + 8) * K(load8)(h + k + 8);
        }
        if (k < taps) even += K(load8)(x0 + k) * K(load8)(h + k);
        f8 sum8 = even + odd;
        f4 sum4 = sum8.lo + sum8.hi;
        f2 sum2 = sum4.lo + sum4.hi;
        out[n] = sum2.x + sum2.y;
        x0 += whole_step;
        phase += phase_step;
        if (phase >= phases) { phase -= phases; x0 += 1; }
    }
}
