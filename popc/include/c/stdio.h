// The tile's <stdio.h>: printf (popc lowers it to the print instruction), puts and putchar write
// to the host's standard output; the file functions are declared for libc++ only.
#ifndef _POPC_STDIO_H
#define _POPC_STDIO_H

#define __need_size_t
#define __need_NULL
#include <stdarg.h>
#include <stddef.h>

#define EOF (-1)
#define BUFSIZ 1024
#define FILENAME_MAX 256
#define FOPEN_MAX 8
#define L_tmpnam 20
#define TMP_MAX 238328
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _POPC_FILE FILE;
typedef long fpos_t;
extern FILE *stdin, *stdout, *stderr;

int printf(const char *__restrict, ...);
#ifdef __cplusplus
inline int puts(const char *s) { return printf("%s\n", s); }
inline int putchar(int c) { return printf("%c", c) == 1 ? (unsigned char)c : EOF; }
#endif

int fprintf(FILE *__restrict, const char *__restrict, ...);
int sprintf(char *__restrict, const char *__restrict, ...);
int snprintf(char *__restrict, size_t, const char *__restrict, ...);
int vprintf(const char *__restrict, va_list);
int vfprintf(FILE *__restrict, const char *__restrict, va_list);
int vsprintf(char *__restrict, const char *__restrict, va_list);
int vsnprintf(char *__restrict, size_t, const char *__restrict, va_list);
int scanf(const char *__restrict, ...);
int fscanf(FILE *__restrict, const char *__restrict, ...);
int sscanf(const char *__restrict, const char *__restrict, ...);
int vscanf(const char *__restrict, va_list);
int vfscanf(FILE *__restrict, const char *__restrict, va_list);
int vsscanf(const char *__restrict, const char *__restrict, va_list);
FILE *fopen(const char *__restrict, const char *__restrict);
FILE *freopen(const char *__restrict, const char *__restrict, FILE *__restrict);
int fclose(FILE *);
int fflush(FILE *);
void setbuf(FILE *__restrict, char *__restrict);
int setvbuf(FILE *__restrict, char *__restrict, int, size_t);
int fgetc(FILE *);
char *fgets(char *__restrict, int, FILE *__restrict);
int fputc(int, FILE *);
int fputs(const char *__restrict, FILE *__restrict);
int getc(FILE *);
int getchar(void);
int putc(int, FILE *);
int ungetc(int, FILE *);
size_t fread(void *__restrict, size_t, size_t, FILE *__restrict);
size_t fwrite(const void *__restrict, size_t, size_t, FILE *__restrict);
int fseek(FILE *, long, int);
long ftell(FILE *);
void rewind(FILE *);
void clearerr(FILE *);
int feof(FILE *);
int ferror(FILE *);
void perror(const char *);
int remove(const char *);
int rename(const char *, const char *);
FILE *tmpfile(void);
char *tmpnam(char *);

#ifdef __cplusplus
}
#endif

#endif
