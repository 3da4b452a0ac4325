// The tile's <math.h>: the C99 functions. The float ones the ISA computes (sqrtf, expf, logf,
// tanhf, sinf, cosf, powf, floorf, ceilf, roundf, truncf, fabsf, fminf, fmaxf, fmaf) are single
// instructions (popc/lib/passes/MathFunctions.def); the others are defined here from those.
// Double precision is software on the tile (popc/runtime/Double.cpp): the double functions that
// are exact sign and rounding operations are defined here from it; the others, and long double,
// are declared for libc++ only (a call is a popc error).
#ifndef _POPC_MATH_H
#define _POPC_MATH_H

typedef float float_t;
typedef double double_t;

#define HUGE_VALF __builtin_huge_valf()
#define HUGE_VAL __builtin_huge_val()
#define HUGE_VALL __builtin_huge_vall()
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")

#define FP_NAN 0
#define FP_INFINITE 1
#define FP_ZERO 2
#define FP_SUBNORMAL 3
#define FP_NORMAL 4
#define FP_ILOGB0 (-2147483647 - 1)
#define FP_ILOGBNAN (-2147483647 - 1)
#define MATH_ERRNO 1
#define MATH_ERREXCEPT 2
#define math_errhandling 0

// The classification macros are Clang's builtins; libc++'s <math.h> turns them into overloads.
#define fpclassify(x) __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x)
#define signbit(x) __builtin_signbit(x)
#define isfinite(x) __builtin_isfinite(x)
#define isinf(x) __builtin_isinf(x)
#define isnan(x) __builtin_isnan(x)
#define isnormal(x) __builtin_isnormal(x)
#define isgreater(x, y) __builtin_isgreater(x, y)
#define isgreaterequal(x, y) __builtin_isgreaterequal(x, y)
#define isless(x, y) __builtin_isless(x, y)
#define islessequal(x, y) __builtin_islessequal(x, y)
#define islessgreater(x, y) __builtin_islessgreater(x, y)
#define isunordered(x, y) __builtin_isunordered(x, y)

#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440

#ifdef __cplusplus
extern "C" {
#define _POPC_MATH_INLINE inline
#else
#define _POPC_MATH_INLINE static inline
#endif

// Declarations of every C99 function in its three precisions.
#define _POPC_MATH_1(name)                                                                         \
  double name(double);                                                                             \
  float name##f(float);                                                                            \
  long double name##l(long double);
#define _POPC_MATH_2(name)                                                                         \
  double name(double, double);                                                                     \
  float name##f(float, float);                                                                     \
  long double name##l(long double, long double);
_POPC_MATH_1(acos)
_POPC_MATH_1(asin)
_POPC_MATH_1(atan)
_POPC_MATH_2(atan2)
_POPC_MATH_1(cos)
_POPC_MATH_1(sin)
_POPC_MATH_1(tan)
_POPC_MATH_1(acosh)
_POPC_MATH_1(asinh)
_POPC_MATH_1(atanh)
_POPC_MATH_1(cosh)
_POPC_MATH_1(sinh)
_POPC_MATH_1(tanh)
_POPC_MATH_1(exp)
_POPC_MATH_1(exp2)
_POPC_MATH_1(expm1)
_POPC_MATH_1(log)
_POPC_MATH_1(log10)
_POPC_MATH_1(log1p)
_POPC_MATH_1(log2)
_POPC_MATH_1(logb)
_POPC_MATH_1(cbrt)
_POPC_MATH_1(fabs)
_POPC_MATH_2(hypot)
_POPC_MATH_2(pow)
_POPC_MATH_1(sqrt)
_POPC_MATH_1(erf)
_POPC_MATH_1(erfc)
_POPC_MATH_1(lgamma)
_POPC_MATH_1(tgamma)
_POPC_MATH_1(ceil)
_POPC_MATH_1(floor)
_POPC_MATH_1(nearbyint)
_POPC_MATH_1(rint)
_POPC_MATH_1(round)
_POPC_MATH_1(trunc)
_POPC_MATH_2(fmod)
_POPC_MATH_2(remainder)
_POPC_MATH_2(copysign)
_POPC_MATH_2(nextafter)
_POPC_MATH_2(fdim)
_POPC_MATH_2(fmax)
_POPC_MATH_2(fmin)
#undef _POPC_MATH_1
#undef _POPC_MATH_2
double fma(double, double, double);
float fmaf(float, float, float);
long double fmal(long double, long double, long double);
double frexp(double, int *);
long double frexpl(long double, int *);
double ldexp(double, int);
long double ldexpl(long double, int);
double scalbn(double, int);
long double scalbnl(long double, int);
double scalbln(double, long);
long double scalblnl(long double, long);
int ilogb(double);
int ilogbl(long double);
double modf(double, double *);
long double modfl(long double, long double *);
double remquo(double, double, int *);
float remquof(float, float, int *);
long double remquol(long double, long double, int *);
double nan(const char *);
long double nanl(const char *);
double nexttoward(double, long double);
float nexttowardf(float, long double);
long double nexttowardl(long double, long double);
long lrint(double);
long lrintl(long double);
long long llrint(double);
long long llrintl(long double);
long lround(double);
long lroundl(long double);
long long llround(double);
long long llroundl(long double);

// ---- float functions defined from the ISA's ----

// Bit access without memcpy or unions (both valid C++ here, but this stays a constant).
_POPC_MATH_INLINE unsigned __popc_bits(float x) { return __builtin_bit_cast(unsigned, x); }
_POPC_MATH_INLINE float __popc_float(unsigned b) { return __builtin_bit_cast(float, b); }

_POPC_MATH_INLINE float exp2f(float x) { return expf(x * 0.693147180559945309f); }
_POPC_MATH_INLINE float log2f(float x) { return logf(x) * 1.44269504088896341f; }
_POPC_MATH_INLINE float log10f(float x) { return logf(x) * 0.434294481903251828f; }
_POPC_MATH_INLINE float tanf(float x) { return sinf(x) / cosf(x); }
_POPC_MATH_INLINE float sinhf(float x) { return 0.5f * (expf(x) - expf(-x)); }
_POPC_MATH_INLINE float coshf(float x) { return 0.5f * (expf(x) + expf(-x)); }
_POPC_MATH_INLINE float asinhf(float x) {
  float a = fabsf(x);
  return copysignf(logf(a + sqrtf(a * a + 1.0f)), x);
}
_POPC_MATH_INLINE float acoshf(float x) { return logf(x + sqrtf(x * x - 1.0f)); }
_POPC_MATH_INLINE float atanhf(float x) { return 0.5f * logf((1.0f + x) / (1.0f - x)); }
// expm1 and log1p keep their accuracy near zero with the standard compensations.
_POPC_MATH_INLINE float expm1f(float x) {
  float u = expf(x);
  if (u == 1.0f)
    return x;
  float um1 = u - 1.0f;
  if (um1 == -1.0f)
    return -1.0f;
  return um1 * x / logf(u);
}
_POPC_MATH_INLINE float log1pf(float x) {
  float u = 1.0f + x;
  return u == 1.0f ? x : logf(u) * x / (u - 1.0f);
}
_POPC_MATH_INLINE float cbrtf(float x) {
  if (x == 0.0f || !__builtin_isfinite(x))
    return x;
  float a = fabsf(x);
  float y = expf(logf(a) * (1.0f / 3.0f));
  y = y - (y * y * y - a) / (3.0f * y * y); // one Newton step: cbrt(8) is 2 exactly
  return copysignf(y, x);
}
_POPC_MATH_INLINE float hypotf(float x, float y) {
  float a = fabsf(x), b = fabsf(y);
  float big = fmaxf(a, b), small = fminf(a, b);
  if (big == 0.0f || big == __builtin_inff())
    return big;
  float r = small / big;
  return big * sqrtf(1.0f + r * r);
}
_POPC_MATH_INLINE float copysignf(float x, float y) { return __builtin_copysignf(x, y); }
// Always inlined: a double cannot be a call argument on the tile (the calls are `nobuiltin` in
// a freestanding compile, which the ordinary inliner leaves alone).
#define _POPC_MATH_DOUBLE _POPC_MATH_INLINE __attribute__((always_inline))
_POPC_MATH_DOUBLE double fabs(double x) { return __builtin_fabs(x); }
_POPC_MATH_DOUBLE double copysign(double x, double y) { return __builtin_copysign(x, y); }
// Round half to even: adding and removing 2^52 rounds in the nearest-even mode; from 2^52 up
// every double is integral.
_POPC_MATH_DOUBLE double rint(double x) {
  double a = fabs(x);
  if (!(a < 4503599627370496.0))
    return x;
  return copysign((a + 4503599627370496.0) - 4503599627370496.0, x);
}
_POPC_MATH_DOUBLE double nearbyint(double x) { return rint(x); }
_POPC_MATH_DOUBLE double floor(double x) {
  double r = rint(x);
  return r > x ? r - 1.0 : r;
}
_POPC_MATH_DOUBLE double ceil(double x) {
  double r = rint(x);
  return r < x ? r + 1.0 : r;
}
_POPC_MATH_DOUBLE double trunc(double x) { return copysign(floor(fabs(x)), x); }
_POPC_MATH_DOUBLE double round(double x) { // half away from zero; x - trunc(x) is exact
  double t = trunc(x);
  return fabs(x - t) >= 0.5 ? t + copysign(1.0, x) : t;
}
_POPC_MATH_DOUBLE double fmin(double x, double y) { return y < x || x != x ? y : x; }
_POPC_MATH_DOUBLE double fmax(double x, double y) { return y > x || x != x ? y : x; }
#undef _POPC_MATH_DOUBLE
_POPC_MATH_INLINE float fdimf(float x, float y) { return x > y ? x - y : 0.0f; }
// Round half to even: adding and removing 2^23 rounds in the current (nearest-even) mode.
_POPC_MATH_INLINE float rintf(float x) {
  float a = fabsf(x);
  if (!(a < 8388608.0f))
    return x;
  return copysignf((a + 8388608.0f) - 8388608.0f, x);
}
_POPC_MATH_INLINE float nearbyintf(float x) { return rintf(x); }
_POPC_MATH_INLINE long lrintf(float x) { return (long)rintf(x); }
_POPC_MATH_INLINE long long llrintf(float x) { return (long long)rintf(x); }
_POPC_MATH_INLINE long lroundf(float x) { return (long)roundf(x); }
_POPC_MATH_INLINE long long llroundf(float x) { return (long long)roundf(x); }
_POPC_MATH_INLINE float modff(float x, float *integral) {
  float i = truncf(x);
  *integral = i;
  return __builtin_isinf(x) ? copysignf(0.0f, x) : x - i;
}
_POPC_MATH_INLINE float scalbnf(float x, int n) {
  // Steps of at most 2^127 keep every intermediate factor a normal float.
  while (n > 127) {
    x *= 1.7014118346046923e38f;
    n -= 127;
  }
  while (n < -126) {
    x *= 1.1754943508222875e-38f;
    n += 126;
  }
  return x * __popc_float((unsigned)(n + 127) << 23);
}
_POPC_MATH_INLINE float ldexpf(float x, int n) { return scalbnf(x, n); }
_POPC_MATH_INLINE float scalblnf(float x, long n) { return scalbnf(x, (int)n); }
_POPC_MATH_INLINE float frexpf(float x, int *e) {
  if (x == 0.0f || !__builtin_isfinite(x)) {
    *e = 0;
    return x;
  }
  int shift = 0;
  if (fabsf(x) < 1.1754943508222875e-38f) { // subnormal: normalise first
    x *= 16777216.0f;
    shift = 24;
  }
  unsigned b = __popc_bits(x);
  *e = (int)((b >> 23) & 0xff) - 126 - shift;
  return __popc_float((b & 0x807fffffu) | 0x3f000000u);
}
_POPC_MATH_INLINE int ilogbf(float x) {
  if (x == 0.0f || __builtin_isnan(x))
    return FP_ILOGB0;
  if (__builtin_isinf(x))
    return 2147483647;
  int e;
  frexpf(x, &e);
  return e - 1;
}
_POPC_MATH_INLINE float logbf(float x) {
  if (x == 0.0f)
    return -__builtin_inff();
  if (!__builtin_isfinite(x))
    return x * x;
  return (float)ilogbf(x);
}
// Exact: each step subtracts the largest y * 2^k not above the remainder (Sterbenz).
_POPC_MATH_INLINE float fmodf(float x, float y) {
  float ax = fabsf(x), ay = fabsf(y);
  if (__builtin_isnan(x) || __builtin_isnan(y) || __builtin_isinf(x) || ay == 0.0f)
    return __builtin_nanf("");
  float r = ax;
  while (r >= ay) {
    float d = ay;
    while (d <= r * 0.5f)
      d *= 2.0f;
    r -= d;
  }
  return copysignf(r, x);
}
_POPC_MATH_INLINE float remainderf(float x, float y) {
  float r = fmodf(x, y), ay = fabsf(y);
  if (__builtin_isnan(r))
    return r;
  // fmodf's quotient rounded toward zero; move to the nearest, ties to an even quotient.
  float ar = fabsf(r);
  if (ar > 0.5f * ay || (ar == 0.5f * ay && fmodf(truncf((fabsf(x) - ar) / ay), 2.0f) != 0.0f))
    ar -= ay;
  return copysignf(1.0f, x) * ar;
}
_POPC_MATH_INLINE float remquof(float x, float y, int *quo) {
  float r = remainderf(x, y);
  *quo = (int)((x - r) / y) & 7;
  return r;
}
_POPC_MATH_INLINE float nanf(const char *tag) {
  (void)tag;
  return __builtin_nanf("");
}
_POPC_MATH_INLINE float nextafterf(float x, float y) {
  if (__builtin_isnan(x) || __builtin_isnan(y))
    return x + y;
  if (x == y)
    return y;
  if (x == 0.0f)
    return copysignf(__popc_float(1), y);
  unsigned b = __popc_bits(x);
  b += ((x < y) == (x > 0.0f)) ? 1u : (unsigned)-1;
  return __popc_float(b);
}
_POPC_MATH_INLINE float nexttowardf(float x, long double y) { return nextafterf(x, (float)y); }

// Inverse trigonometric functions: atan on [0, 1] by a minimax polynomial (Cephes atanf,
// about 1 ulp), the others from it.
_POPC_MATH_INLINE float __popc_atan01(float x) {
  // Below tan(pi/8), the polynomial directly; above, atan(x) = pi/4 + atan((x-1)/(x+1)).
  float base = 0.0f;
  if (x > 0.4142135623730950f) {
    base = 0.7853981633974483f;
    x = (x - 1.0f) / (x + 1.0f);
  }
  float z = x * x;
  float p = (((8.05374449538e-2f * z - 1.38776856032e-1f) * z + 1.99777106478e-1f) * z -
             3.33329491539e-1f) *
                z * x +
            x;
  return base + p;
}
_POPC_MATH_INLINE float atanf(float x) {
  float a = fabsf(x);
  float r = a > 1.0f ? 1.5707963267948966f - __popc_atan01(1.0f / a) : __popc_atan01(a);
  return copysignf(r, x);
}
_POPC_MATH_INLINE float atan2f(float y, float x) {
  if (__builtin_isnan(x) || __builtin_isnan(y))
    return x + y;
  float ay = fabsf(y), ax = fabsf(x);
  float r;
  if (ay == 0.0f && ax == 0.0f)
    r = 0.0f;
  else if (ax >= ay)
    r = __popc_atan01(ay / ax);
  else
    r = 1.5707963267948966f - __popc_atan01(ax / ay);
  if (__builtin_signbit(x))
    r = 3.14159265358979323846f - r;
  return copysignf(r, y);
}
_POPC_MATH_INLINE float asinf(float x) { return atan2f(x, sqrtf((1.0f - x) * (1.0f + x))); }
_POPC_MATH_INLINE float acosf(float x) { return atan2f(sqrtf((1.0f - x) * (1.0f + x)), x); }

// erf: Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7).
_POPC_MATH_INLINE float erff(float x) {
  float a = fabsf(x);
  float t = 1.0f / (1.0f + 0.3275911f * a);
  float p = ((((1.061405429f * t - 1.453152027f) * t + 1.421413741f) * t - 0.284496736f) * t +
             0.254829592f) *
            t;
  return copysignf(1.0f - p * expf(-a * a), x);
}
_POPC_MATH_INLINE float erfcf(float x) { return 1.0f - erff(x); }

#undef _POPC_MATH_INLINE
#ifdef __cplusplus
}
#endif

#endif
