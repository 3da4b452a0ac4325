// The tile's <time.h>: the types libc++ names; the tile has no clock, so no functions.
#ifndef _POPC_TIME_H
#define _POPC_TIME_H

#define __need_size_t
#define __need_NULL
#include <stddef.h>

#define CLOCKS_PER_SEC 1000000

typedef long clock_t;
typedef long long time_t;
struct tm {
  int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year, tm_wday, tm_yday, tm_isdst;
};
struct timespec {
  time_t tv_sec;
  long tv_nsec;
};

#endif
