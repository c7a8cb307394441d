// libFuzzer harness for QixKit's own FLAC frame decoder (Sources/CFLACFrame), held to
// libFLAC: built with ASan and UBSan, it aborts on any memory error or undefined
// behaviour in the decoder, and on any frame the decoder accepts with samples other
// than libFLAC's, or that libFLAC rejects.
//
// Input: 4 bytes of stream settings, then one frame. Byte 0 picks the sample size
// (4 + b % 21 bits), byte 1 the channels (1 + b % 8), bytes 2-3 the rate. The frame's
// sync code, header CRC-8 and frame CRC-16 are set by the harness, so that mutations
// reach the subframes instead of dying at a checksum.
#include <FLAC/stream_decoder.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CFLACFrame.h"

#define MAX_BLOCK 65536

static int32_t planes[8][MAX_BLOCK];
static int32_t reference[8][MAX_BLOCK];

typedef struct {
    const uint8_t *data;
    size_t size, at;
    unsigned frames, errors;
    uint32_t blocksize, channels, bits;
} memory_stream;

static FLAC__StreamDecoderReadStatus read_cb(const FLAC__StreamDecoder *d, FLAC__byte *buffer, size_t *bytes, void *c) {
    (void)d;
    memory_stream *s = c;
    size_t n = s->size - s->at < *bytes ? s->size - s->at : *bytes;
    memcpy(buffer, s->data + s->at, n);
    s->at += n;
    *bytes = n;
    return n ? FLAC__STREAM_DECODER_READ_STATUS_CONTINUE : FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM;
}

static FLAC__StreamDecoderWriteStatus write_cb(const FLAC__StreamDecoder *d, const FLAC__Frame *frame,
                                               const FLAC__int32 *const buffer[], void *c) {
    (void)d;
    memory_stream *s = c;
    if (s->frames++ == 0) {
        s->blocksize = frame->header.blocksize;
        s->channels = frame->header.channels;
        s->bits = frame->header.bits_per_sample;
        for (uint32_t ch = 0; ch < frame->header.channels && ch < 8; ch++)
            memcpy(reference[ch], buffer[ch], frame->header.blocksize * sizeof(int32_t));
    }
    return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE;
}

static void error_cb(const FLAC__StreamDecoder *d, FLAC__StreamDecoderErrorStatus status, void *c) {
    (void)d;
    (void)status;
    ((memory_stream *)c)->errors++;
}

static uint8_t crc8(const uint8_t *p, size_t n) {
    unsigned crc = 0;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int b = 0; b < 8; b++) crc = (crc & 0x80) ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
    }
    return (uint8_t)crc;
}

// The header's length up to its CRC-8, or 0 when the coded number is malformed.
static size_t header_length(const uint8_t *f, size_t size) {
    if (size < 16) return 0;
    unsigned size_code = f[2] >> 4, rate_code = f[2] & 15, lead = f[4], extra;
    if (lead < 0x80) extra = 0;
    else if (lead >= 0xc0 && lead < 0xe0) extra = 1;
    else if (lead >= 0xe0 && lead < 0xf0) extra = 2;
    else if (lead >= 0xf0 && lead < 0xf8) extra = 3;
    else if (lead >= 0xf8 && lead < 0xfc) extra = 4;
    else if (lead >= 0xfc && lead < 0xfe) extra = 5;
    else if (lead == 0xfe) extra = 6;
    else return 0;
    size_t at = 5 + extra;
    if (size_code == 6) at += 1;
    else if (size_code == 7) at += 2;
    if (rate_code == 12) at += 1;
    else if (rate_code == 13 || rate_code == 14) at += 2;
    return at;
}

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size) {
    if (size < 4 + 16 || size > 4 + (1 << 20)) return 0;
    uint32_t bits = 4 + input[0] % 21, channels = 1 + input[1] % 8;
    uint32_t rate = 1000 + (((uint32_t)input[2] << 8 | input[3]) * 7) % 190000;
    size_t frame_size = size - 4;

    // The stream libFLAC reads: "fLaC", STREAMINFO (the last metadata block), the frame.
    size_t total = 4 + 4 + 34 + frame_size;
    uint8_t *stream = calloc(total + QIX_FLAC_PADDING, 1);
    memcpy(stream, "fLaC", 4);
    uint8_t *info = stream + 8;
    stream[4] = 0x80;
    stream[7] = 34;
    info[0] = 0x00; info[1] = 0x10;            // smallest block 16
    info[2] = 0xff; info[3] = 0xff;            // largest block 65535
    info[10] = (uint8_t)(rate >> 12);
    info[11] = (uint8_t)(rate >> 4);
    info[12] = (uint8_t)((rate & 15) << 4 | (channels - 1) << 1 | (bits - 1) >> 4);
    info[13] = (uint8_t)(((bits - 1) & 15) << 4);
    uint8_t *frame = stream + 42;
    memcpy(frame, input + 4, frame_size);
    frame[0] = 0xff;
    frame[1] = 0xf8 | (frame[1] & 1);
    size_t header = header_length(frame, frame_size);
    if (header && header < frame_size) frame[header] = crc8(frame, header);
    uint16_t crc = qix_flac_crc16(frame, frame_size - 2, 0);
    frame[frame_size - 2] = (uint8_t)(crc >> 8);
    frame[frame_size - 1] = (uint8_t)crc;

    qix_flac_stream_info settings = {rate, channels, bits};
    int32_t *outputs[8];
    for (int c = 0; c < 8; c++) outputs[c] = planes[c];
    qix_flac_frame_header got;
    size_t consumed = 0;
    qix_flac_frame_status status = qix_flac_decode_frame(frame, frame_size, &settings, outputs, MAX_BLOCK, &got, &consumed);
    qix_flac_frame_header got_portable;
    size_t consumed_portable = 0;
    int32_t *portable[8];
    static int32_t portable_planes[8][MAX_BLOCK];
    for (int c = 0; c < 8; c++) portable[c] = portable_planes[c];
    qix_flac_frame_status status_portable = qix_flac_decode_frame_portable(frame, frame_size, &settings, portable, MAX_BLOCK,
                                                                          &got_portable, &consumed_portable);
    if (status != status_portable) abort();

    if (status == QIX_FLAC_FRAME_OK) {
        memory_stream s = {stream, 42 + consumed, 0, 0, 0, 0, 0, 0};
        FLAC__StreamDecoder *decoder = FLAC__stream_decoder_new();
        FLAC__stream_decoder_set_md5_checking(decoder, false);
        FLAC__stream_decoder_init_stream(decoder, read_cb, NULL, NULL, NULL, NULL, write_cb, NULL, error_cb, &s);
        FLAC__stream_decoder_process_until_end_of_stream(decoder);
        FLAC__stream_decoder_delete(decoder);
        // Accepted by the own decoder: libFLAC must take the same frame without complaint
        // and give the same samples.
        if (s.errors != 0 || s.frames != 1) {
            fprintf(stderr, "own decoder accepts a frame libFLAC rejects (%u errors, %u frames)\n", s.errors, s.frames);
            abort();
        }
        if (s.blocksize != got.blocksize || s.channels != got.channels || s.bits != got.bits_per_sample) abort();
        for (uint32_t c = 0; c < got.channels; c++) {
            if (memcmp(reference[c], planes[c], got.blocksize * sizeof(int32_t)) != 0
                || memcmp(portable_planes[c], planes[c], got.blocksize * sizeof(int32_t)) != 0) {
                fprintf(stderr, "samples differ from libFLAC's in channel %u\n", c);
                abort();
            }
        }
    }
    free(stream);
    return 0;
}
