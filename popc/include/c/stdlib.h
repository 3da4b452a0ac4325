// The tile's <stdlib.h>: integer helpers and abort are defined here; the rest is declared for
// libc++ (a call to malloc, exit, rand, ... is a popc error: the tile has no C library).
#ifndef _POPC_STDLIB_H
#define _POPC_STDLIB_H

#define __need_size_t
#define __need_wchar_t
#define __need_NULL
#include <stddef.h>

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
#define MB_CUR_MAX 1

#ifdef __cplusplus
extern "C" {
#define _POPC_STDLIB_INLINE inline
#else
#define _POPC_STDLIB_INLINE static inline
#endif

typedef struct {
  int quot, rem;
} div_t;
typedef struct {
  long quot, rem;
} ldiv_t;
typedef struct {
  long long quot, rem;
} lldiv_t;

// abort stops the vertex like __builtin_trap (reported as a trap at its source line).
_POPC_STDLIB_INLINE __attribute__((__noreturn__)) void abort(void) { __builtin_trap(); }
_POPC_STDLIB_INLINE int abs(int x) { return x < 0 ? -x : x; }
_POPC_STDLIB_INLINE long labs(long x) { return x < 0 ? -x : x; }
_POPC_STDLIB_INLINE long long llabs(long long x) { return x < 0 ? -x : x; }
_POPC_STDLIB_INLINE div_t div(int n, int d) {
  div_t r = {n / d, n % d};
  return r;
}
_POPC_STDLIB_INLINE ldiv_t ldiv(long n, long d) {
  ldiv_t r = {n / d, n % d};
  return r;
}
_POPC_STDLIB_INLINE lldiv_t lldiv(long long n, long long d) {
  lldiv_t r = {n / d, n % d};
  return r;
}
#undef _POPC_STDLIB_INLINE

__attribute__((__noreturn__)) void exit(int);
__attribute__((__noreturn__)) void _Exit(int);
__attribute__((__noreturn__)) void quick_exit(int);
int atexit(void (*)(void));
int at_quick_exit(void (*)(void));
void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void *aligned_alloc(size_t, size_t);
int posix_memalign(void **, size_t, size_t);
void free(void *);
char *getenv(const char *);
int system(const char *);
int rand(void);
void srand(unsigned);
double atof(const char *);
int atoi(const char *);
long atol(const char *);
long long atoll(const char *);
double strtod(const char *, char **);
float strtof(const char *, char **);
long double strtold(const char *, char **);
long strtol(const char *, char **, int);
long long strtoll(const char *, char **, int);
unsigned long strtoul(const char *, char **, int);
unsigned long long strtoull(const char *, char **, int);
void *bsearch(const void *, const void *, size_t, size_t, int (*)(const void *, const void *));
void qsort(void *, size_t, size_t, int (*)(const void *, const void *));
int mblen(const char *, size_t);
int mbtowc(wchar_t *, const char *, size_t);
int wctomb(char *, wchar_t);
size_t mbstowcs(wchar_t *, const char *, size_t);
size_t wcstombs(char *, const wchar_t *, size_t);

#ifdef __cplusplus
}
#endif

#endif
