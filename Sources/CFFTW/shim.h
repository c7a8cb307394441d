#ifndef CFFTW_SHIM_H
#define CFFTW_SHIM_H
#if __has_include(<fftw3.h>)
#include <fftw3.h>
#else
#error "QixKit needs <fftw3.h>: install libfftw3-dev (Debian/Ubuntu: apt-get install libfftw3-dev)"
#endif
#endif
