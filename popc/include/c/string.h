// The tile's <string.h>: the memory and string functions, defined here as loops (the tile has no
// C library; popc compiles them with the codelet and inlines the small ones).
#ifndef _POPC_STRING_H
#define _POPC_STRING_H

#define __need_size_t
#define __need_NULL
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#define _POPC_STRING_INLINE inline
#else
#define _POPC_STRING_INLINE static inline
#endif

_POPC_STRING_INLINE void *memcpy(void *__restrict dst, const void *__restrict src, size_t n) {
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  for (size_t i = 0; i < n; ++i)
    d[i] = s[i];
  return dst;
}
_POPC_STRING_INLINE void *memmove(void *dst, const void *src, size_t n) {
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  if (d < s)
    for (size_t i = 0; i < n; ++i)
      d[i] = s[i];
  else
    for (size_t i = n; i > 0; --i)
      d[i - 1] = s[i - 1];
  return dst;
}
_POPC_STRING_INLINE void *memset(void *dst, int value, size_t n) {
  unsigned char *d = (unsigned char *)dst;
  for (size_t i = 0; i < n; ++i)
    d[i] = (unsigned char)value;
  return dst;
}
_POPC_STRING_INLINE int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  for (size_t i = 0; i < n; ++i)
    if (x[i] != y[i])
      return x[i] < y[i] ? -1 : 1;
  return 0;
}
_POPC_STRING_INLINE void *memchr(const void *p, int c, size_t n) {
  const unsigned char *s = (const unsigned char *)p;
  for (size_t i = 0; i < n; ++i)
    if (s[i] == (unsigned char)c)
      return (void *)(s + i);
  return NULL;
}
_POPC_STRING_INLINE size_t strlen(const char *s) {
  size_t n = 0;
  while (s[n])
    ++n;
  return n;
}
_POPC_STRING_INLINE int strncmp(const char *a, const char *b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
    if (x != y)
      return x < y ? -1 : 1;
    if (!x)
      break;
  }
  return 0;
}
_POPC_STRING_INLINE int strcmp(const char *a, const char *b) { return strncmp(a, b, (size_t)-1); }
_POPC_STRING_INLINE int strcoll(const char *a, const char *b) { return strcmp(a, b); }
_POPC_STRING_INLINE char *strcpy(char *__restrict dst, const char *__restrict src) {
  size_t i = 0;
  for (; src[i]; ++i)
    dst[i] = src[i];
  dst[i] = 0;
  return dst;
}
_POPC_STRING_INLINE char *strncpy(char *__restrict dst, const char *__restrict src, size_t n) {
  size_t i = 0;
  for (; i < n && src[i]; ++i)
    dst[i] = src[i];
  for (; i < n; ++i)
    dst[i] = 0;
  return dst;
}
_POPC_STRING_INLINE char *strcat(char *__restrict dst, const char *__restrict src) {
  strcpy(dst + strlen(dst), src);
  return dst;
}
_POPC_STRING_INLINE char *strncat(char *__restrict dst, const char *__restrict src, size_t n) {
  char *d = dst + strlen(dst);
  size_t i = 0;
  for (; i < n && src[i]; ++i)
    d[i] = src[i];
  d[i] = 0;
  return dst;
}
_POPC_STRING_INLINE char *strchr(const char *s, int c) {
  for (;; ++s) {
    if (*s == (char)c)
      return (char *)s;
    if (!*s)
      return NULL;
  }
}
_POPC_STRING_INLINE char *strrchr(const char *s, int c) {
  const char *found = NULL;
  for (;; ++s) {
    if (*s == (char)c)
      found = s;
    if (!*s)
      return (char *)found;
  }
}
_POPC_STRING_INLINE size_t strspn(const char *s, const char *accept) {
  size_t n = 0;
  while (s[n] && strchr(accept, s[n]))
    ++n;
  return n;
}
_POPC_STRING_INLINE size_t strcspn(const char *s, const char *reject) {
  size_t n = 0;
  while (s[n] && !strchr(reject, s[n]))
    ++n;
  return n;
}
_POPC_STRING_INLINE char *strpbrk(const char *s, const char *accept) {
  s += strcspn(s, accept);
  return *s ? (char *)s : NULL;
}
_POPC_STRING_INLINE char *strstr(const char *haystack, const char *needle) {
  size_t n = strlen(needle);
  for (; *haystack; ++haystack)
    if (!strncmp(haystack, needle, n))
      return (char *)haystack;
  return n ? NULL : (char *)haystack;
}
_POPC_STRING_INLINE size_t strxfrm(char *__restrict dst, const char *__restrict src, size_t n) {
  size_t len = strlen(src);
  if (len < n)
    strcpy(dst, src);
  return len;
}
#undef _POPC_STRING_INLINE

// Declared only: they keep state or describe host errors.
char *strtok(char *__restrict, const char *__restrict);
char *strerror(int);

#ifdef __cplusplus
}
#endif

#endif
