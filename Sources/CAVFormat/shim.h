#ifndef CAVFormat_SHIM_H
#define CAVFormat_SHIM_H
#if __has_include(<libavformat/avformat.h>) && __has_include(<libavcodec/avcodec.h>) && __has_include(<libswresample/swresample.h>)
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>
#include <stdarg.h>
#include <stdio.h>

/// AVERROR(EAGAIN) and AVERROR_EOF are macros Swift cannot import; these are their values.
static inline int qix_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int qix_averror_eof(void) { return AVERROR_EOF; }
/// AVSEEK_SIZE asks a custom I/O seek callback for the stream's size.
static inline int qix_avseek_size(void) { return AVSEEK_SIZE; }
/// AV_NOPTS_VALUE, a cast Swift cannot import: a timestamp that is not known.
static inline int64_t qix_av_nopts_value(void) { return AV_NOPTS_VALUE; }

/// Where FFmpeg's error lines go, formatted. Swift cannot write a C function taking a
/// va_list, so the log callback is C and hands each line on already printed.
typedef void (*qix_av_log_sink)(int level, const char *line);
static qix_av_log_sink qix_av_log_sink_function = 0;

static inline void qix_av_log_callback(void *context, int level, const char *format, va_list arguments) {
    (void)context;
    if (level > AV_LOG_ERROR || !qix_av_log_sink_function || !format) return;
    char line[512];
    vsnprintf(line, sizeof line, format, arguments);
    qix_av_log_sink_function(level, line);
}

/// Sends FFmpeg's error lines to `sink` and drops the rest: nothing reaches stderr raw.
static inline void qix_av_log_install(qix_av_log_sink sink) {
    qix_av_log_sink_function = sink;
    av_log_set_level(AV_LOG_ERROR);
    av_log_set_callback(qix_av_log_callback);
}
#else
#error "QixKit needs FFmpeg's libraries: install libavformat-dev libavcodec-dev libswresample-dev libavutil-dev (Debian/Ubuntu: apt-get install libavformat-dev libavcodec-dev libswresample-dev libavutil-dev)"
#endif
#endif
