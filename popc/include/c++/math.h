// <math.h> for codelets: libc++'s (C++ overloads over the tile's C <math.h>), plus the float
// functions on half: computed in float and rounded to half, as on the IPU. <cmath> includes
// this header, so std:: has them too.
#include_next <math.h>

#if defined(__cplusplus) && !defined(_POPC_HALF_MATH_H)
#define _POPC_HALF_MATH_H

#define _POPC_HALF_1(name)                                                                         \
  inline __fp16 name(__fp16 x) noexcept { return (__fp16)::name##f((float)x); }
#define _POPC_HALF_2(name)                                                                         \
  inline __fp16 name(__fp16 x, __fp16 y) noexcept { return (__fp16)::name##f((float)x, (float)y); }
#define _POPC_HALF_PREDICATE(name)                                                                 \
  inline bool name(__fp16 x) noexcept { return __builtin_##name((float)x); }
_POPC_HALF_1(acos)
_POPC_HALF_1(asin)
_POPC_HALF_1(atan)
_POPC_HALF_2(atan2)
_POPC_HALF_1(cos)
_POPC_HALF_1(sin)
_POPC_HALF_1(tan)
_POPC_HALF_1(cosh)
_POPC_HALF_1(sinh)
_POPC_HALF_1(tanh)
_POPC_HALF_1(exp)
_POPC_HALF_1(exp2)
_POPC_HALF_1(expm1)
_POPC_HALF_1(log)
_POPC_HALF_1(log10)
_POPC_HALF_1(log1p)
_POPC_HALF_1(log2)
_POPC_HALF_1(cbrt)
_POPC_HALF_1(fabs)
_POPC_HALF_2(pow)
_POPC_HALF_1(sqrt)
_POPC_HALF_1(erf)
_POPC_HALF_1(ceil)
_POPC_HALF_1(floor)
_POPC_HALF_1(rint)
_POPC_HALF_1(round)
_POPC_HALF_1(trunc)
_POPC_HALF_2(fmod)
_POPC_HALF_2(copysign)
_POPC_HALF_2(fmin)
_POPC_HALF_2(fmax)
_POPC_HALF_PREDICATE(isnan)
_POPC_HALF_PREDICATE(isinf)
_POPC_HALF_PREDICATE(isfinite)
_POPC_HALF_PREDICATE(isnormal)
_POPC_HALF_PREDICATE(signbit)
inline __fp16 abs(__fp16 x) noexcept { return (__fp16)::fabsf((float)x); }
#undef _POPC_HALF_1
#undef _POPC_HALF_2
#undef _POPC_HALF_PREDICATE

#endif
