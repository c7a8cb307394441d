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

// Two channels in one pass, written interleaved (out[2n], out[2n + 1]): each output's
// coefficient row is loaded once for both, and each channel's sums are formed exactly as
// the one-channel loop forms them, so the samples are bit for bit the same.
void K(qix_polyphase_run2)(const float *left, const float *right, int64_t first, int64_t phase,
                           const float *table, int64_t taps, int64_t phases,
                           int64_t whole_step, int64_t phase_step,
                           float *out, int64_t count) {
    const float *a0 = left + first, *b0 = right + first;
    for (int64_t n = 0; n < count; n++) {
        const float *h = table + phase * taps;
        f8 evenA = 0, oddA = 0, evenB = 0, oddB = 0;
        int64_t k = 0;
        for (; k + 16 <= taps; k += 16) {
            f8 h0 = K(load8)(h + k), h1 = K(load8)(h + k + 8);
            evenA += K(load8)(a0 + k) * h0;
            oddA += K(load8)(a0 + k + 8) * h1;
            evenB += K(load8)(b0 + k) * h0;
            oddB += K(load8)(b0 + k + 8) * h1;
        }
        if (k < taps) {
            f8 h0 = K(load8)(h + k);
            evenA += K(load8)(a0 + k) * h0;
            evenB += K(load8)(b0 + k) * h0;
        }
        f8 sumA8 = evenA + oddA, sumB8 = evenB + oddB;
        f4 sumA4 = sumA8.lo + sumA8.hi, sumB4 = sumB8.lo + sumB8.hi;
        f2 sumA2 = sumA4.lo + sumA4.hi, sumB2 = sumB4.lo + sumB4.hi;
        out[2 * n] = sumA2.x + sumA2.y;
        out[2 * n + 1] = sumB2.x + sumB2.y;
        a0 += whole_step;
        b0 += whole_step;
        phase += phase_step;
        if (phase >= phases) { phase -= phases; a0 += 1; b0 += 1; }
    }
}
