#ifndef CSoxr_SHIM_H
#define CSoxr_SHIM_H
#if __has_include(<soxr.h>)
#include <soxr.h>
#else
#error "QixKit needs <soxr.h>: install libsoxr-dev (Debian/Ubuntu: apt-get install libsoxr-dev)"
#endif
#endif
