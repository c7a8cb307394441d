// QixKit's FLAC frame decoder (RFC 9639), for the 8-24 bit streams broadcast archives hold.
//
// Why not only libFLAC: a scan of 44.1 kHz stereo FLAC spent about 60 % of its time in
// libFLAC 1.4, reading Rice codes through a 32-bit word reader and restoring LPC one
// channel at a time. This decoder keeps a 64-bit cache of the bit stream and reads a whole
// Rice partition per call (one count-leading-zeros, add and shift per code), and restores
// the two channels of a stereo frame in one loop, two independent dependency chains, with
// the order fixed per copy of the loop. Anything it does not take (a reserved field, over
// 24 bits, a CRC mismatch, a cut frame) it refuses, and the caller hands the stream to
// libFLAC (FLACFrameReader), so damaged files behave exactly as with libFLAC alone.
#include "CFLACFrame.h"

#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

// MARK: - CRCs

static uint8_t crc8_table[256];
static uint16_t crc16_tables[8][256];

__attribute__((constructor(101))) static void qix_flac_build_crc_tables(void) {
    for (unsigned byte = 0; byte < 256; byte++) {
        unsigned crc8 = byte;
        for (int bit = 0; bit < 8; bit++) crc8 = (crc8 & 0x80) ? ((crc8 << 1) ^ 0x07) & 0xff : (crc8 << 1) & 0xff;
        crc8_table[byte] = (uint8_t)crc8;
        unsigned crc16 = byte << 8;
        for (int bit = 0; bit < 8; bit++) crc16 = (crc16 & 0x8000) ? ((crc16 << 1) ^ 0x8005) & 0xffff : (crc16 << 1) & 0xffff;
        crc16_tables[0][byte] = (uint16_t)crc16;
    }
    // Table j: a byte followed by j zero bytes, for eight bytes per step.
    for (int j = 1; j < 8; j++) {
        for (unsigned byte = 0; byte < 256; byte++) {
            uint16_t previous = crc16_tables[j - 1][byte];
            crc16_tables[j][byte] = (uint16_t)((previous << 8) ^ crc16_tables[0][previous >> 8]);
        }
    }
}

static uint8_t crc8(const uint8_t *data, size_t count) {
    uint8_t crc = 0;
    for (size_t i = 0; i < count; i++) crc = crc8_table[crc ^ data[i]];
    return crc;
}

static unsigned crc16_bytes(unsigned crc, const uint8_t *data, size_t count) {
    for (size_t i = 0; i < count; i++) crc = ((crc << 8) & 0xffff) ^ crc16_tables[0][(crc >> 8) ^ data[i]];
    return crc;
}

static uint16_t crc16_sliced(const uint8_t *data, size_t count) {
    unsigned crc = 0;
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        crc = crc16_tables[7][data[i] ^ (crc >> 8)] ^ crc16_tables[6][data[i + 1] ^ (crc & 0xff)]
            ^ crc16_tables[5][data[i + 2]] ^ crc16_tables[4][data[i + 3]]
            ^ crc16_tables[3][data[i + 4]] ^ crc16_tables[2][data[i + 5]]
            ^ crc16_tables[1][data[i + 6]] ^ crc16_tables[0][data[i + 7]];
    }
    return (uint16_t)crc16_bytes(crc, data + i, count - i);
}

#if defined(__x86_64__)
// x^192 and x^128 modulo the CRC polynomial x^16 + x^15 + x^2 + 1.
static uint64_t fold_high, fold_low;

// Carry-less multiplication folding (Gopal et al., Intel 2009), 5x the tables' speed: a
// 128-bit remainder A of the message so far (first byte highest) folds into the next 16
// bytes B as A.hi x^192 + A.lo x^128 + B, the same value modulo the polynomial; the CRC of
// the last A's 16 bytes is then the CRC of everything folded, and the tail goes on bytewise.
__attribute__((target("pclmul,ssse3")))
static uint16_t crc16_folded(const uint8_t *data, size_t count) {
    if (count < 32) return crc16_sliced(data, count);
    const __m128i reverse = _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m128i constants = _mm_set_epi64x((long long)fold_high, (long long)fold_low);
    __m128i remainder = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)data), reverse);
    size_t i = 16;
    for (; i + 16 <= count; i += 16) {
        __m128i next = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + i)), reverse);
        __m128i high = _mm_clmulepi64_si128(remainder, constants, 0x11);
        __m128i low = _mm_clmulepi64_si128(remainder, constants, 0x00);
        remainder = _mm_xor_si128(_mm_xor_si128(high, low), next);
    }
    uint8_t bytes[16];
    _mm_storeu_si128((__m128i *)bytes, _mm_shuffle_epi8(remainder, reverse));
    return (uint16_t)crc16_bytes(crc16_bytes(0, bytes, 16), data + i, count - i);
}
#endif

static uint64_t x_power_mod(unsigned n) {
    uint32_t r = 1;
    for (unsigned i = 0; i < n; i++) {
        r <<= 1;
        if (r & 0x10000) r ^= 0x18005;
    }
    return r;
}

// The frame CRC-16: folded where the CPU has PCLMULQDQ, else by tables.
static uint16_t (*crc16)(const uint8_t *, size_t) = crc16_sliced;

__attribute__((constructor(200))) static void qix_flac_pick_crc(void) {
#if defined(__x86_64__)
    fold_high = x_power_mod(192);
    fold_low = x_power_mod(128);
    __builtin_cpu_init();
    if (__builtin_cpu_supports("pclmul") && __builtin_cpu_supports("ssse3")) crc16 = crc16_folded;
#else
    (void)x_power_mod;
#endif
}

uint16_t qix_flac_crc16(const uint8_t *data, size_t count, int32_t folded) {
#if defined(__x86_64__)
    if (folded && crc16 == crc16_folded) return crc16_folded(data, count);
#endif
    (void)folded;
    return crc16_sliced(data, count);
}

// MARK: - Shared by both builds

// Unread bits left-aligned in `cache`, `count` of them valid; the bits below are the
// stream's next bits too (a refill ORs the same values over them), so a refill is
// branch-free: load 8 bytes, add the whole ones that fit (Giesen's "variant 4").
// Loads never start past `limit` (the caller's last byte plus 8, inside the padding): a
// cut or damaged frame reads garbage there, and the checks of `next` against `limit`
// and of the frame's end against its size catch it.
typedef struct {
    const uint8_t *next;
    const uint8_t *limit;
    uint64_t cache;
    unsigned count;
} bit_reader;

// A Rice code's value back to a signed residual: 0, 1, 2, 3, 4 ... are 0, -1, 1, -2, 2 ...
static inline __attribute__((always_inline)) int32_t unfold_sign(uint64_t value) {
    return (int32_t)((uint32_t)(value >> 1) ^ (uint32_t)-(int64_t)(value & 1));
}

// a + b as the hardware adds, wrapping: a CRC-valid but hostile frame can push a
// prediction past 32 bits, which is undefined behaviour in signed C arithmetic.
static inline __attribute__((always_inline)) int32_t wrapping_add(int32_t a, int32_t b) {
    return (int32_t)((uint32_t)a + (uint32_t)b);
}

// How a subframe predicts its samples, kept from parsing until its CRC is checked.
typedef struct {
    enum { SUBFRAME_PLAIN, SUBFRAME_FIXED, SUBFRAME_LPC } kind;
    uint32_t order;
    unsigned shift;
    unsigned wasted;
    int32_t coefficients[32];
} subframe;

// What a frame header says, as the decoder uses it: assignment 0-7 is that many channels
// minus one, coded independently; 8, 9, 10 are left/side, side/right, mid/side.
typedef struct {
    uint32_t blocksize, rate, channels, bits;
    unsigned assignment;
    uint64_t number;
} frame_fields;

// An empty asm the value must pass through in a register: it keeps the sums below in
// the scalar registers and in the order written. Left alone, clang's straight-line
// vectorizer turns them into 64-bit vector multiplies (emulated before AVX-512) fed by
// stores and reloads of the history, which ran at half libFLAC's speed.
#define QIX_OPAQUE(x) __asm__("" : "+r"(x))

// s[i] += (sum of c[j] s[i - 1 - j]) >> shift, with the order a constant in each copy so
// the compiler unrolls the sum. 64-bit sums: 25-bit samples times 15-bit coefficients
// over 32 terms fit. The previous sample stays in a register and its product is added
// last: the loop's dependency chain is one multiply, an add, the shift and the residual's
// add, while the older samples (stored iterations before, so forwarded) wait for nothing.
#define LPC_LOOP(ORDER)                                                              \
    {                                                                                \
        int32_t last = s[ORDER - 1];                                                 \
        for (uint32_t i = ORDER; i < n; i++) {                                       \
            int64_t sum = 0;                                                         \
            for (int j = ORDER - 1; j > 0; j--) {                                    \
                sum += (int64_t)c[j] * s[i - 1 - j];                                 \
                QIX_OPAQUE(sum);                                                     \
            }                                                                        \
            sum += (int64_t)c[0] * last;                                             \
            last = wrapping_add(s[i], (int32_t)(sum >> shift));                     \
            s[i] = last;                                                             \
        }                                                                            \
    }

// Two channels of the same order in one loop: two independent chains keep the
// multiplier busy while each waits for its previous sample.
#define LPC_PAIR_LOOP(ORDER)                                                         \
    {                                                                                \
        int32_t last_a = a[ORDER - 1], last_b = b[ORDER - 1];                        \
        for (uint32_t i = ORDER; i < n; i++) {                                       \
            int64_t sum_a = 0, sum_b = 0;                                            \
            for (int j = ORDER - 1; j > 0; j--) {                                    \
                sum_a += (int64_t)ca[j] * a[i - 1 - j];                              \
                sum_b += (int64_t)cb[j] * b[i - 1 - j];                              \
                QIX_OPAQUE(sum_a);                                                   \
                QIX_OPAQUE(sum_b);                                                   \
            }                                                                        \
            sum_a += (int64_t)ca[0] * last_a;                                        \
            sum_b += (int64_t)cb[0] * last_b;                                        \
            last_a = wrapping_add(a[i], (int32_t)(sum_a >> shift_a));               \
            last_b = wrapping_add(b[i], (int32_t)(sum_b >> shift_b));               \
            a[i] = last_a;                                                           \
            b[i] = last_b;                                                           \
        }                                                                            \
    }

// Order 8 (the reference encoder's default) in the x86-64-v3 build with both channels in
// one SSE register: one pmuldq per coefficient serves both (the scalar loop's multiplies
// were its limit), a per-lane logical shift gives the arithmetic shift's low 32 bits
// (shifts are at most 15 and the sums under 2^62), and the last eight samples stay in
// eight named registers (an array of them went through the stack, which stalled).
#define LPC_PAIR_SIMD_ORDER8                                                         \
    {                                                                                \
        const __m128i k0 = _mm_set_epi64x(cb[0], ca[0]), k1 = _mm_set_epi64x(cb[1], ca[1]); \
        const __m128i k2 = _mm_set_epi64x(cb[2], ca[2]), k3 = _mm_set_epi64x(cb[3], ca[3]); \
        const __m128i k4 = _mm_set_epi64x(cb[4], ca[4]), k5 = _mm_set_epi64x(cb[5], ca[5]); \
        const __m128i k6 = _mm_set_epi64x(cb[6], ca[6]), k7 = _mm_set_epi64x(cb[7], ca[7]); \
        __m128i h0 = _mm_set_epi64x(b[7], a[7]), h1 = _mm_set_epi64x(b[6], a[6]);    \
        __m128i h2 = _mm_set_epi64x(b[5], a[5]), h3 = _mm_set_epi64x(b[4], a[4]);    \
        __m128i h4 = _mm_set_epi64x(b[3], a[3]), h5 = _mm_set_epi64x(b[2], a[2]);    \
        __m128i h6 = _mm_set_epi64x(b[1], a[1]), h7 = _mm_set_epi64x(b[0], a[0]);    \
        const __m128i shifts = _mm_set_epi64x(shift_b, shift_a);                    \
        for (uint32_t i = 8; i < n; i++) {                                           \
            __m128i old = _mm_add_epi64(_mm_add_epi64(_mm_mul_epi32(k7, h7), _mm_mul_epi32(k6, h6)), \
                                        _mm_add_epi64(_mm_mul_epi32(k5, h5), _mm_mul_epi32(k4, h4))); \
            old = _mm_add_epi64(old, _mm_add_epi64(_mm_mul_epi32(k3, h3), _mm_mul_epi32(k2, h2))); \
            __m128i sum = _mm_add_epi64(_mm_add_epi64(old, _mm_mul_epi32(k1, h1)), _mm_mul_epi32(k0, h0)); \
            __m128i value = _mm_add_epi32(_mm_srlv_epi64(sum, shifts), _mm_set_epi64x(b[i], a[i])); \
            a[i] = _mm_cvtsi128_si32(value);                                         \
            b[i] = _mm_extract_epi32(value, 2);                                      \
            h7 = h6; h6 = h5; h5 = h4; h4 = h3; h3 = h2; h2 = h1; h1 = h0; h0 = value; \
        }                                                                            \
    }


static const uint32_t sample_rates[12] = {0, 88200, 176400, 192000, 8000, 16000, 22050, 24000, 32000, 44100, 48000, 96000};
static const uint32_t sample_sizes[8] = {0, 8, 12, 0, 16, 20, 24, 32};

// MARK: - The two builds

#define K(name) name##_portable
#include "FLACFrameDecode.h"
#undef K

#if defined(__x86_64__)

#pragma clang attribute push(__attribute__((target("arch=x86-64-v3"))), apply_to = function)
#define K(name) name##_v3
#define QIX_FLAC_PAIR_SIMD 1
#include "FLACFrameDecode.h"
#undef QIX_FLAC_PAIR_SIMD
#undef K
#pragma clang attribute pop

#endif

typedef qix_flac_frame_status (*frame_decoder)(const uint8_t *, size_t, const qix_flac_stream_info *,
                                               int32_t *const *, uint32_t, qix_flac_frame_header *, size_t *);
static frame_decoder best_decoder = decode_frame_portable;

__attribute__((constructor)) static void qix_flac_pick_decoder(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("x86-64-v3")) best_decoder = decode_frame_v3;
#endif
}

qix_flac_frame_status qix_flac_decode_frame(const uint8_t *data, size_t size,
                                            const qix_flac_stream_info *stream,
                                            int32_t *const *output, uint32_t capacity,
                                            qix_flac_frame_header *header, size_t *consumed) {
    return best_decoder(data, size, stream, output, capacity, header, consumed);
}

qix_flac_frame_status qix_flac_decode_frame_portable(const uint8_t *data, size_t size,
                                                     const qix_flac_stream_info *stream,
                                                     int32_t *const *output, uint32_t capacity,
                                                     qix_flac_frame_header *header, size_t *consumed) {
    return decode_frame_portable(data, size, stream, output, capacity, header, consumed);
}
