#ifndef CSndFile_SHIM_H
#define CSndFile_SHIM_H
#if __has_include(<sndfile.h>)
#include <sndfile.h>
#else
#error "QixKit needs <sndfile.h>: install libsndfile1-dev (Debian/Ubuntu: apt-get install libsndfile1-dev)"
#endif

#if defined(__linux__)
#include <stdio.h>
#include <sys/types.h>

// libsndfile's MP3 decoder (libmpg123) prints its complaints on the C stderr stream.
// glibc's fopencookie makes a stream whose writes QixKit routes (QixAudio's
// LibraryMessages); it is declared only under _GNU_SOURCE, so it is declared here under
// a name of its own with the same layout.
typedef ssize_t (*qix_cookie_write)(void *cookie, const char *buffer, size_t size);
typedef struct {
    void *read;
    qix_cookie_write write;
    void *seek;
    void *close;
} qix_cookie_functions;
extern FILE *qix_fopencookie(void *cookie, const char *mode, qix_cookie_functions functions) __asm__("fopencookie");

// Points the C stderr stream at `stream` (a global Swift 6 will not assign).
static inline void qix_set_c_stderr(FILE *stream) { stderr = stream; }
#endif
#endif
