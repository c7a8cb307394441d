#ifndef CSndFile_SHIM_H
#define CSndFile_SHIM_H
#if __has_include(<sndfile.h>)
#include <sndfile.h>
#else
#error "QixKit needs <sndfile.h>: install libsndfile1-dev (Debian/Ubuntu: apt-get install libsndfile1-dev)"
#endif
#endif
