// The tile's <assert.h>: a failing assert stops the vertex with a trap that the runtime reports
// as "assertion failed", naming the vertex, its tile and the assert's source line. No include
// guard: each inclusion follows the current NDEBUG, as the C standard requires.
#undef assert
#ifdef NDEBUG
#define assert(expression) ((void)0)
#else
#ifdef __cplusplus
extern "C"
#endif
    // Never defined: popc lowers a call to it to `trap kTrapAssert` at the call's line.
    __attribute__((__noreturn__)) void
    __popc_assert_fail(void);
#define assert(expression) ((expression) ? (void)0 : __popc_assert_fail())
#endif

#if !defined(__cplusplus) && !defined(static_assert)
#define static_assert _Static_assert
#endif
