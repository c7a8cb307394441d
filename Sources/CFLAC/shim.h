#ifndef CFLAC_SHIM_H
#define CFLAC_SHIM_H
#if __has_include(<FLAC/stream_decoder.h>)
#include <FLAC/stream_decoder.h>
#else
#error "QixKit needs <FLAC/stream_decoder.h>: install libflac-dev (Debian/Ubuntu: apt-get install libflac-dev)"
#endif
#endif
