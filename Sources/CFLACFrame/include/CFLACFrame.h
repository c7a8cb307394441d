#ifndef QIX_FLAC_FRAME_H
#define QIX_FLAC_FRAME_H

#include <stddef.h>
#include <stdint.h>

/// Bytes that must be readable (any value) after the last byte handed to
/// `qix_flac_decode_frame`: the bit reader loads 8 bytes at a time.
#define QIX_FLAC_PADDING 16

/// What STREAMINFO fixes for frames whose headers defer to it.
typedef struct {
    uint32_t sample_rate;
    uint32_t channels;
    uint32_t bits_per_sample;
} qix_flac_stream_info;

/// One decoded frame's shape.
typedef struct {
    uint32_t blocksize;
    uint32_t sample_rate;
    uint32_t channels;
    uint32_t bits_per_sample;
    /// Whether the stream numbers its frames by first sample (variable block size), not by
    /// frame index.
    uint32_t variable_blocksize;
    /// The frame's number (its index, or its first sample's when `variable_blocksize`),
    /// which libFLAC checks against the frames before it.
    uint64_t number;
} qix_flac_frame_header;

/// How a call to `qix_flac_decode_frame` ended.
typedef enum {
    /// The frame decoded and its CRC-16 matched; `consumed` bytes were used.
    QIX_FLAC_FRAME_OK = 0,
    /// The frame runs past the bytes given: call again with more.
    QIX_FLAC_FRAME_NEED_MORE = 1,
    /// Not a frame this decoder takes: no sync, a reserved or unsupported field (over 24
    /// bits, a channel count or sample size other than the stream's), samples beyond the
    /// sample size, a CRC mismatch. libFLAC decides.
    QIX_FLAC_FRAME_REFUSED = 2,
} qix_flac_frame_status;

/// Decodes the frame at `data[0]` into `output[c][0 ..< blocksize]` (one plane per channel,
/// each `capacity` samples), checking its header CRC-8 and frame CRC-16. `size` bytes are
/// valid; `QIX_FLAC_PADDING` more must be readable.
qix_flac_frame_status qix_flac_decode_frame(const uint8_t *data, size_t size,
                                            const qix_flac_stream_info *stream,
                                            int32_t *const *output, uint32_t capacity,
                                            qix_flac_frame_header *header, size_t *consumed);

/// The baseline x86-64 build of the same decoder, for tests that compare the two builds.
qix_flac_frame_status qix_flac_decode_frame_portable(const uint8_t *data, size_t size,
                                                     const qix_flac_stream_info *stream,
                                                     int32_t *const *output, uint32_t capacity,
                                                     qix_flac_frame_header *header, size_t *consumed);

/// The frame CRC-16 (polynomial 0x8005, as FLAC uses it), by carry-less multiplication
/// folding when `folded` and the CPU has it, else by tables: for tests comparing the two.
uint16_t qix_flac_crc16(const uint8_t *data, size_t count, int32_t folded);

#endif
