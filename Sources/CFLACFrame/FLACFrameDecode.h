// The frame decoder, included twice by FLACFrame.c with `K(name)` naming the copy: for
// baseline x86-64 and for x86-64-v3 (LZCNT, BMI2's flag-free shifts, MOVBE), which reads
// Rice codes about a third faster. Integer code only: both copies give the same samples.

// MARK: - Bit reader

static inline uint64_t K(load_be64)(const uint8_t *p) {
    uint64_t value;
    memcpy(&value, p, 8);
    return __builtin_bswap64(value);
}

// Afterwards at least 56 bits are valid.
static inline void K(refill)(bit_reader *r) {
    r->cache |= K(load_be64)(r->next <= r->limit ? r->next : r->limit) >> r->count;
    r->next += (63 - r->count) >> 3;
    r->count |= 56;
}

// n in 1 ... 32.
static inline uint32_t K(read_bits)(bit_reader *r, unsigned n) {
    if (r->count < n) K(refill)(r);
    uint32_t value = (uint32_t)(r->cache >> (64 - n));
    r->cache <<= n;
    r->count -= n;
    return value;
}

// n in 1 ... 32, two's complement.
static inline int32_t K(read_signed)(bit_reader *r, unsigned n) {
    uint32_t value = K(read_bits)(r, n);
    return (int32_t)(value << (32 - n)) >> (32 - n);
}

// Zeros before the next one bit (which is consumed too). Stops counting at `limit` bytes.
static inline uint32_t K(read_unary)(bit_reader *r) {
    uint32_t zeros = 0;
    for (;;) {
        K(refill)(r);
        unsigned q = r->cache ? (unsigned)__builtin_clzll(r->cache) : 64;
        if (q < r->count) {
            r->cache <<= q;
            r->cache <<= 1;
            r->count -= q + 1;
            return zeros + q;
        }
        zeros += r->count;
        r->cache = 0;
        r->count = 0;
        if (r->next > r->limit) return zeros;
    }
}

// Bits read since `base`.
static inline size_t K(bit_position)(const bit_reader *r, const uint8_t *base) {
    return (size_t)(r->next - base) * 8 - r->count;
}

// MARK: - Residual

// One Rice partition: `n` values with parameter `k` (0 ... 30), zigzag-mapped. A code is
// q zeros, a one and k low bits; read as one (q + 1 + k)-bit number it is 2^k + low, so the
// value q 2^k + low is that number plus (q - 1) 2^k: one shift per code. One refill (at
// least 56 bits) serves two codes when the second fits in what is left, as it nearly
// always does: the loop is bound by its instruction count, and the refill was a quarter
// of it (x 0.75 per code measured).
static int K(rice_partition)(bit_reader *r, int32_t *out, uint32_t n, unsigned k) {
    const uint8_t *next = r->next, *limit = r->limit;
    uint64_t cache = r->cache;
    unsigned count = r->count;
    if (next > limit) return 0;
    const unsigned code_bits = k + 1;
    const uint64_t one = (uint64_t)1 << k;
    uint32_t i = 0;
    while (i < n) {
        cache |= K(load_be64)(next) >> count;
        next += (63 - count) >> 3;
        count |= 56;
        unsigned q = cache ? (unsigned)__builtin_clzll(cache) : 64;
        unsigned total = q + code_bits;
        uint64_t value;
        if (__builtin_expect(total <= count, 1)) {
            value = (cache >> (64 - total)) + ((uint64_t)q << k) - one;
            cache <<= total;
            count -= total;
            out[i++] = unfold_sign(value);
            if (__builtin_expect(i < n, 1)) {
                q = cache ? (unsigned)__builtin_clzll(cache) : 64;
                total = q + code_bits;
                if (__builtin_expect(total <= count, 1)) {
                    value = (cache >> (64 - total)) + ((uint64_t)q << k) - one;
                    cache <<= total;
                    count -= total;
                    out[i++] = unfold_sign(value);
                }
            }
        } else {
            r->next = next;
            r->cache = cache;
            r->count = count;
            uint64_t high = K(read_unary)(r);
            value = (high << k) | (k ? K(read_bits)(r, k) : 0);
            next = r->next;
            cache = r->cache;
            count = r->count;
            out[i++] = unfold_sign(value);
        }
        if (__builtin_expect(next > limit, 0)) return 0;
    }
    r->next = next;
    r->cache = cache;
    r->count = count;
    return 1;
}

// The residual after `order` warm-up samples of a `blocksize` block, into out[order...].
static int K(read_residual)(bit_reader *r, int32_t *out, uint32_t blocksize, uint32_t order) {
    uint32_t method = K(read_bits)(r, 2);
    if (method > 1) return 0;
    unsigned parameter_bits = method == 0 ? 4 : 5;
    unsigned escape = method == 0 ? 15 : 31;
    unsigned partition_order = K(read_bits)(r, 4);
    uint32_t partition_size = blocksize >> partition_order;
    if ((partition_size << partition_order) != blocksize || partition_size < order) return 0;
    uint32_t at = order;
    for (uint32_t p = 0; p < (1u << partition_order); p++) {
        uint32_t n = p == 0 ? partition_size - order : partition_size;
        unsigned k = K(read_bits)(r, parameter_bits);
        if (k == escape) {
            unsigned width = K(read_bits)(r, 5);
            if (width == 0) {
                memset(out + at, 0, n * sizeof(int32_t));
            } else {
                for (uint32_t i = 0; i < n; i++) out[at + i] = K(read_signed)(r, width);
            }
            if (r->next > r->limit) return 0;
        } else if (!K(rice_partition)(r, out + at, n, k)) {
            return 0;
        }
        at += n;
    }
    return 1;
}

// MARK: - Prediction

static void K(restore_lpc)(int32_t *s, uint32_t n, const int32_t *c, uint32_t order, unsigned shift) {
    switch (order) {
    case 1: LPC_LOOP(1) break;
    case 2: LPC_LOOP(2) break;
    case 3: LPC_LOOP(3) break;
    case 4: LPC_LOOP(4) break;
    case 5: LPC_LOOP(5) break;
    case 6: LPC_LOOP(6) break;
    case 7: LPC_LOOP(7) break;
    case 8: LPC_LOOP(8) break;
    case 9: LPC_LOOP(9) break;
    case 10: LPC_LOOP(10) break;
    case 11: LPC_LOOP(11) break;
    case 12: LPC_LOOP(12) break;
    default:
        for (uint32_t i = order; i < n; i++) {
            int64_t sum = 0;
            for (uint32_t j = 0; j < order; j++) sum += (int64_t)c[j] * s[i - 1 - j];
            s[i] = wrapping_add(s[i], (int32_t)(sum >> shift));
        }
    }
}

// Returns 0 for orders it has no joint loop for. Out of line: inlined into the frame's
// stages (as clang did once decode_frame was split) its loops took 12 % more instructions.
static __attribute__((noinline)) int K(restore_lpc_pair)(int32_t *a, int32_t *b, uint32_t n, const subframe *fa, const subframe *fb) {
    const int32_t *ca = fa->coefficients, *cb = fb->coefficients;
    unsigned shift_a = fa->shift, shift_b = fb->shift;
#if QIX_FLAC_PAIR_SIMD
    if (fa->order == 8) {
        LPC_PAIR_SIMD_ORDER8
        return 1;
    }
#endif
    switch (fa->order) {
    case 4: LPC_PAIR_LOOP(4) return 1;
    case 6: LPC_PAIR_LOOP(6) return 1;
    case 8: LPC_PAIR_LOOP(8) return 1;
    case 10: LPC_PAIR_LOOP(10) return 1;
    case 12: LPC_PAIR_LOOP(12) return 1;
    default: return 0;
    }
}

// The fixed predictors of orders 0-4 (binomial coefficients), in wrapping arithmetic.
static void K(restore_fixed)(int32_t *s, uint32_t n, uint32_t order) {
    uint32_t *u = (uint32_t *)s;
    switch (order) {
    case 1: for (uint32_t i = 1; i < n; i++) u[i] += u[i - 1]; break;
    case 2: for (uint32_t i = 2; i < n; i++) u[i] += 2 * u[i - 1] - u[i - 2]; break;
    case 3: for (uint32_t i = 3; i < n; i++) u[i] += 3 * (u[i - 1] - u[i - 2]) + u[i - 3]; break;
    case 4: for (uint32_t i = 4; i < n; i++) u[i] += 4 * (u[i - 1] + u[i - 3]) - 6 * u[i - 2] - u[i - 4]; break;
    default: break;
    }
}

static void K(restore)(int32_t *s, uint32_t n, const subframe *f) {
    if (f->kind == SUBFRAME_FIXED) K(restore_fixed)(s, n, f->order);
    else if (f->kind == SUBFRAME_LPC) K(restore_lpc)(s, n, f->coefficients, f->order, f->shift);
    if (f->wasted) {
        for (uint32_t i = 0; i < n; i++) s[i] = (int32_t)((uint32_t)s[i] << f->wasted);
    }
}

// MARK: - Subframes

// Reads a subframe's warm-up samples and residual into s (or its samples, when plain),
// and into f how to predict the rest.
static int K(read_subframe)(bit_reader *r, int32_t *s, uint32_t blocksize, unsigned bits, subframe *f) {
    if (K(read_bits)(r, 1) != 0) return 0;
    uint32_t type = K(read_bits)(r, 6);
    f->wasted = 0;
    if (K(read_bits)(r, 1)) {
        f->wasted = K(read_unary)(r) + 1;
        if (f->wasted >= bits) return 0;
        bits -= f->wasted;
    }
    if (type == 0) {
        f->kind = SUBFRAME_PLAIN;
        int32_t value = K(read_signed)(r, bits);
        for (uint32_t i = 0; i < blocksize; i++) s[i] = value;
    } else if (type == 1) {
        f->kind = SUBFRAME_PLAIN;
        for (uint32_t i = 0; i < blocksize; i++) s[i] = K(read_signed)(r, bits);
    } else if (type >= 8 && type <= 12) {
        f->kind = SUBFRAME_FIXED;
        f->order = type - 8;
        // libFLAC refuses a predictor whose warm-up fills the whole block (order >= blocksize).
        if (f->order >= blocksize) return 0;
        for (uint32_t i = 0; i < f->order; i++) s[i] = K(read_signed)(r, bits);
        if (!K(read_residual)(r, s, blocksize, f->order)) return 0;
    } else if (type >= 32) {
        f->kind = SUBFRAME_LPC;
        f->order = (type & 31) + 1;
        if (f->order >= blocksize) return 0;
        for (uint32_t i = 0; i < f->order; i++) s[i] = K(read_signed)(r, bits);
        unsigned precision = K(read_bits)(r, 4) + 1;
        if (precision == 16) return 0;
        int32_t shift = K(read_signed)(r, 5);
        if (shift < 0) return 0;
        f->shift = (unsigned)shift;
        for (uint32_t j = 0; j < f->order; j++) f->coefficients[j] = K(read_signed)(r, precision);
        if (!K(read_residual)(r, s, blocksize, f->order)) return 0;
    } else {
        return 0;
    }
    return r->next <= r->limit;
}

// MARK: - Frames

// Whether every sample is a `bits`-bit two's complement number: x ^ (x >> 31) folds the
// negatives onto the positives, so one OR over the block and one shift decide.
static int K(fits_bits)(const int32_t *s, uint32_t n, unsigned bits) {
    uint32_t folded = 0;
    for (uint32_t i = 0; i < n; i++) folded |= (uint32_t)(s[i] ^ (s[i] >> 31));
    return (folded >> (bits - 1)) == 0;
}

// The frame or sample number after the header's fixed bytes, UTF-8 style (its length is
// all the decoder needs), advancing *at past it; 0 for a malformed one.
static int K(read_coded_number)(const uint8_t *data, size_t *at, uint64_t *number) {
    unsigned lead = data[*at], extra;
    if (lead < 0x80) extra = 0;
    else if (lead >= 0xc0 && lead < 0xe0) extra = 1;
    else if (lead >= 0xe0 && lead < 0xf0) extra = 2;
    else if (lead >= 0xf0 && lead < 0xf8) extra = 3;
    else if (lead >= 0xf8 && lead < 0xfc) extra = 4;
    else if (lead >= 0xfc && lead < 0xfe) extra = 5;
    else if (lead == 0xfe) extra = 6;
    else return 0;
    uint64_t value = extra == 0 ? lead : lead & (0x3f >> extra);
    for (unsigned i = 1; i <= extra; i++) {
        if ((data[*at + i] & 0xc0) != 0x80) return 0;
        value = value << 6 | (data[*at + i] & 0x3f);
    }
    *number = value;
    *at += 1 + extra;
    return 1;
}

// The block size and sample rate from their header codes, with the bytes that follow the
// coded number for the codes that need them, advancing *at past those bytes.
static void K(read_sizes)(const uint8_t *data, size_t *at, unsigned size_code, unsigned rate_code,
                          const qix_flac_stream_info *stream, frame_fields *f) {
    if (size_code == 1) f->blocksize = 192;
    else if (size_code <= 5) f->blocksize = 576u << (size_code - 2);
    else if (size_code == 6) f->blocksize = (uint32_t)data[(*at)++] + 1;
    else if (size_code == 7) { f->blocksize = ((uint32_t)data[*at] << 8 | data[*at + 1]) + 1; *at += 2; }
    else f->blocksize = 256u << (size_code - 8);
    if (rate_code == 0) f->rate = stream->sample_rate;
    else if (rate_code < 12) f->rate = sample_rates[rate_code];
    else if (rate_code == 12) f->rate = (uint32_t)data[(*at)++] * 1000;
    else { f->rate = (uint32_t)data[*at] << 8 | data[*at + 1]; if (rate_code == 14) f->rate *= 10; *at += 2; }
}

// The frame header into *f, its length (CRC-8 included) into *length: OK, NEED_MORE for a
// possible header cut short, REFUSED for anything else this decoder does not take.
static qix_flac_frame_status K(read_frame_header)(const uint8_t *data, size_t size,
                                                  const qix_flac_stream_info *stream, uint32_t capacity,
                                                  frame_fields *f, size_t *length) {
    // The longest header: 4 fixed bytes, a 7-byte coded number, 2 + 2 bytes of sizes, CRC-8.
    if (size < 16) {
        if (size < 2 || (data[0] == 0xff && (data[1] & 0xfe) == 0xf8)) return QIX_FLAC_FRAME_NEED_MORE;
        return QIX_FLAC_FRAME_REFUSED;
    }
    if (data[0] != 0xff || (data[1] & 0xfe) != 0xf8) return QIX_FLAC_FRAME_REFUSED;
    unsigned size_code = data[2] >> 4, rate_code = data[2] & 15;
    unsigned assignment = data[3] >> 4, bits_code = (data[3] >> 1) & 7;
    if (size_code == 0 || rate_code == 15 || assignment > 10 || bits_code == 3 || (data[3] & 1)) return QIX_FLAC_FRAME_REFUSED;
    size_t at = 4;
    if (!K(read_coded_number)(data, &at, &f->number)) return QIX_FLAC_FRAME_REFUSED;
    K(read_sizes)(data, &at, size_code, rate_code, stream, f);
    if (crc8(data, at) != data[at]) return QIX_FLAC_FRAME_REFUSED;
    f->assignment = assignment;
    f->channels = assignment < 8 ? assignment + 1 : 2;
    f->bits = bits_code == 0 ? stream->bits_per_sample : sample_sizes[bits_code];
    // A frame whose sample size differs from STREAMINFO's is refused too: the stream's
    // depth is what every sample is held to.
    if (f->channels != stream->channels || f->bits != stream->bits_per_sample || f->bits < 4 || f->bits > 24
        || f->blocksize > capacity) return QIX_FLAC_FRAME_REFUSED;
    *length = at + 1;
    return QIX_FLAC_FRAME_OK;
}

// Every subframe from data[start] on (warm-up and residual into output, predictors into
// subframes), then the zero padding to the byte and the CRC-16 of everything before it;
// *end is where the CRC-16 starts.
static qix_flac_frame_status K(read_subframes)(const uint8_t *data, size_t size, size_t start, const frame_fields *f,
                                               int32_t *const *output, subframe *subframes, size_t *end) {
    bit_reader reader = {data + start, data + size + 8, 0, 0};
    for (uint32_t c = 0; c < f->channels; c++) {
        // The side channel carries one bit more.
        unsigned a = f->assignment;
        unsigned extra_bit = (a == 8 || a == 10) ? c == 1 : a == 9 ? c == 0 : 0;
        if (!K(read_subframe)(&reader, output[c], f->blocksize, f->bits + extra_bit, &subframes[c])) {
            return K(bit_position)(&reader, data) > size * 8 ? QIX_FLAC_FRAME_NEED_MORE : QIX_FLAC_FRAME_REFUSED;
        }
    }
    size_t position = K(bit_position)(&reader, data);
    size_t padding = (8 - position % 8) % 8;
    if (padding && K(read_bits)(&reader, (unsigned)padding) != 0) return QIX_FLAC_FRAME_REFUSED;
    *end = (position + padding) / 8;
    if (*end + 2 > size || reader.next > reader.limit) return QIX_FLAC_FRAME_NEED_MORE;
    if (crc16(data, *end) != ((unsigned)data[*end] << 8 | data[*end + 1])) return QIX_FLAC_FRAME_REFUSED;
    return QIX_FLAC_FRAME_OK;
}

// Each channel's prediction, the first two in one loop when they share an LPC order.
static void K(restore_channels)(int32_t *const *output, const frame_fields *f, subframe *subframes) {
    uint32_t c = 0, blocksize = f->blocksize;
    if (f->channels >= 2 && subframes[0].kind == SUBFRAME_LPC && subframes[1].kind == SUBFRAME_LPC
        && subframes[0].order == subframes[1].order && subframes[0].order < blocksize
        && K(restore_lpc_pair)(output[0], output[1], blocksize, &subframes[0], &subframes[1])) {
        for (; c < 2; c++) {
            subframes[c].kind = SUBFRAME_PLAIN;
            K(restore)(output[c], blocksize, &subframes[c]);
        }
    }
    for (; c < f->channels; c++) K(restore)(output[c], blocksize, &subframes[c]);
}

// Left and right from left/side, side/right or mid/side (assignments 8, 9, 10).
static void K(undo_stereo)(int32_t *const *output, const frame_fields *f) {
    int32_t *left = output[0], *right = f->channels > 1 ? output[1] : 0;
    uint32_t blocksize = f->blocksize;
    if (f->assignment == 8) {
        for (uint32_t i = 0; i < blocksize; i++) right[i] = (int32_t)((uint32_t)left[i] - (uint32_t)right[i]);
    } else if (f->assignment == 9) {
        for (uint32_t i = 0; i < blocksize; i++) left[i] = wrapping_add(left[i], right[i]);
    } else if (f->assignment == 10) {
        for (uint32_t i = 0; i < blocksize; i++) {
            int64_t side = right[i];
            int64_t mid = (int64_t)left[i] * 2 + (side & 1);
            left[i] = (int32_t)((mid + side) >> 1);
            right[i] = (int32_t)((mid - side) >> 1);
        }
    }
}

// A frame's stages: header (CRC-8), subframes (CRC-16), prediction, stereo, depth check.
// Nothing is predicted before both CRCs matched.
static qix_flac_frame_status K(decode_frame)(const uint8_t *data, size_t size,
                                            const qix_flac_stream_info *stream,
                                            int32_t *const *output, uint32_t capacity,
                                            qix_flac_frame_header *header, size_t *consumed) {
    frame_fields f;
    size_t start, end;
    qix_flac_frame_status status = K(read_frame_header)(data, size, stream, capacity, &f, &start);
    if (status != QIX_FLAC_FRAME_OK) return status;
    subframe subframes[8];
    status = K(read_subframes)(data, size, start, &f, output, subframes, &end);
    if (status != QIX_FLAC_FRAME_OK) return status;
    K(restore_channels)(output, &f, subframes);
    K(undo_stereo)(output, &f);
    // libFLAC refuses a frame whose samples leave its bit depth (a side channel or an LPC
    // restore can reach past it, CRCs intact): so does this decoder, and libFLAC decides.
    for (uint32_t ch = 0; ch < f.channels; ch++) {
        if (!K(fits_bits)(output[ch], f.blocksize, f.bits)) return QIX_FLAC_FRAME_REFUSED;
    }
    header->blocksize = f.blocksize;
    header->sample_rate = f.rate;
    header->channels = f.channels;
    header->bits_per_sample = f.bits;
    header->variable_blocksize = data[1] & 1;
    header->number = f.number;
    *consumed = end + 2;
    return QIX_FLAC_FRAME_OK;
}
