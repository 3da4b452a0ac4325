// The tile's <wchar.h>: the types libc++ needs (mbstate_t for std::fpos) and the search
// functions its <wchar.h> overloads; declarations only (calling one is a popc error).
#ifndef _POPC_WCHAR_H
#define _POPC_WCHAR_H

#define __need_size_t
#define __need_wchar_t
#define __need_NULL
#define __need_wint_t
#include <stddef.h>

#define WEOF ((wint_t)-1)
#define WCHAR_MIN __WCHAR_MIN__
#define WCHAR_MAX __WCHAR_MAX__

typedef struct {
  unsigned count, value;
} mbstate_t;

#ifdef __cplusplus
extern "C" {
#endif
wchar_t *wcschr(const wchar_t *, wchar_t);
wchar_t *wcspbrk(const wchar_t *, const wchar_t *);
wchar_t *wcsrchr(const wchar_t *, wchar_t);
wchar_t *wcsstr(const wchar_t *, const wchar_t *);
wchar_t *wmemchr(const wchar_t *, wchar_t, size_t);
size_t wcslen(const wchar_t *);
int wmemcmp(const wchar_t *, const wchar_t *, size_t);
wchar_t *wmemcpy(wchar_t *, const wchar_t *, size_t);
wchar_t *wmemmove(wchar_t *, const wchar_t *, size_t);
wchar_t *wmemset(wchar_t *, wchar_t, size_t);
#ifdef __cplusplus
}
#endif

#endif
