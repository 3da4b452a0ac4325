// What each element-wise op computes on the tile: popops' vertices and the codelets that
// popops::map generates for fused expressions both call these, so an op means one thing.
// half values are computed in float and rounded to half when stored, as the IPU does.
#pragma once

#include <poplar/HalfFloat.hpp>
#include <popops/ExprOp.hpp>

namespace popops {
namespace device {

/// The type an element is computed in: float for half, the type itself otherwise.
template <class T> struct ComputeType { using type = T; };
template <> struct ComputeType<half> { using type = float; };
template <class T> using Compute = typename ComputeType<T>::type;

template <class T> constexpr bool isFloating() { return __is_same(T, float) || __is_same(T, half); }

#define POPOPS_INLINE __attribute__((always_inline)) inline

// Software forms of functions the tile has no instruction for (as on the IPU, where they are
// library code): accurate to a few float ulps over the ranges the tests use.
POPOPS_INLINE float atanReduced(float x) {
  // |x| <= tan(pi/12): the odd Taylor series to x^13 is below float precision.
  float x2 = x * x;
  return x *
         (1.0f + x2 * (-1.0f / 3 +
                       x2 * (1.0f / 5 + x2 * (-1.0f / 7 + x2 * (1.0f / 9 + x2 * (-1.0f / 11))))));
}
/// Whether x's sign bit is set (true for -0.0, which compares equal to +0.0).
POPOPS_INLINE bool signBit(float x) { return __builtin_bit_cast(unsigned, x) >> 31; }
/// |x| with the sign of s.
POPOPS_INLINE float withSignOf(float x, float s) {
  return __builtin_bit_cast(float, (__builtin_bit_cast(unsigned, x) & 0x7fffffffu) |
                                       (__builtin_bit_cast(unsigned, s) & 0x80000000u));
}
POPOPS_INLINE float atanf(float x) {
  const float pi2 = 1.57079632679f, pi6 = 0.523598775598f, sqrt3 = 1.73205080757f;
  float a = __builtin_fabsf(x);
  bool invert = a > 1.0f;
  if (invert)
    a = 1.0f / a;
  bool shift = a > 0.267949192f;
  if (shift)
    a = (a * sqrt3 - 1.0f) / (sqrt3 + a);
  float r = atanReduced(a);
  if (shift)
    r += pi6;
  if (invert)
    r = pi2 - r;
  return withSignOf(r, x); // atan(-0) = -0
}
/// IEEE atan2, signed zeros and infinities included: atan2(-0, -1) = -pi, atan2(+0, -0) = pi.
POPOPS_INLINE float atan2f(float y, float x) {
  const float pi = 3.14159265359f, inf = __builtin_inff();
  if (x != x || y != y)
    return x + y;
  if (y == 0)
    return signBit(x) ? withSignOf(pi, y) : y;
  if (x == 0)
    return withSignOf(pi / 2, y);
  float ay = __builtin_fabsf(y), ax = __builtin_fabsf(x);
  float r;
  if (ay == inf && ax == inf)
    r = signBit(x) ? 3 * pi / 4 : pi / 4;
  else if (signBit(x))
    r = pi - atanf(ay / ax);
  else
    r = atanf(ay / ax);
  return withSignOf(r, y);
}
POPOPS_INLINE float erff(float x) {
  // Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7).
  float a = __builtin_fabsf(x);
  float t = 1.0f / (1.0f + 0.3275911f * a);
  float poly =
      t * (0.254829592f +
           t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
  float r = 1.0f - poly * __builtin_expf(-a * a);
  return x < 0 ? -r : r;
}
POPOPS_INLINE float expm1f(float x) {
  // Kahan: exact near zero, where exp(x) - 1 cancels.
  float u = __builtin_expf(x);
  if (u == 1.0f)
    return x;
  float um1 = u - 1.0f;
  if (um1 == -1.0f)
    return -1.0f;
  return um1 * x / __builtin_logf(u);
}
POPOPS_INLINE float log1pf(float x) {
  float u = 1.0f + x;
  if (u == 1.0f)
    return x;
  return __builtin_logf(u) * x / (u - 1.0f);
}
POPOPS_INLINE float nearbyintf(float x) {
  // Round half to even (the default rounding mode).
  float r = __builtin_roundf(x);
  if (__builtin_fabsf(x - __builtin_truncf(x)) == 0.5f)
    r = 2.0f * __builtin_roundf(x * 0.5f);
  return r;
}
POPOPS_INLINE float fmodf(float x, float y) { return x - __builtin_truncf(x / y) * y; }

template <expr::UnaryOpType op, class C> POPOPS_INLINE auto unaryOp(C x) {
  using U = expr::UnaryOpType;
  constexpr bool fp = __is_same(C, float);
  if constexpr (op == U::ABSOLUTE) {
    if constexpr (fp)
      return __builtin_fabsf(x);
    else
      return x < 0 ? -x : x;
  } else if constexpr (op == U::ASIN)
    return atan2f(x, __builtin_sqrtf((1.0f - x) * (1.0f + x)));
  else if constexpr (op == U::BITWISE_NOT)
    return C(~x);
  else if constexpr (op == U::CBRT) {
    float r = __builtin_powf(__builtin_fabsf(x), 1.0f / 3);
    return x < 0 ? -r : r;
  } else if constexpr (op == U::CEIL)
    return __builtin_ceilf(x);
  else if constexpr (op == U::COS)
    return __builtin_cosf(x);
  else if constexpr (op == U::COUNT_LEADING_ZEROS)
    return C(x == 0 ? 32 : __builtin_clz(unsigned(x)));
  else if constexpr (op == U::ERF)
    return erff(x);
  else if constexpr (op == U::EXPONENT)
    return __builtin_expf(x);
  else if constexpr (op == U::EXPONENT_MINUS_ONE)
    return expm1f(x);
  else if constexpr (op == U::EXPONENT2)
    return __builtin_powf(2.0f, x);
  else if constexpr (op == U::FLOOR)
    return __builtin_floorf(x);
  else if constexpr (op == U::GELU_ERF)
    return 0.5f * x * (1.0f + erff(x * 0.70710678118f));
  else if constexpr (op == U::INVERSE)
    return 1.0f / x;
  else if constexpr (op == U::IS_FINITE)
    return __builtin_fabsf(x) < __builtin_inff();
  else if constexpr (op == U::IS_INF)
    return __builtin_fabsf(x) == __builtin_inff();
  else if constexpr (op == U::IS_NAN)
    return x != x;
  else if constexpr (op == U::LOGARITHM)
    return __builtin_logf(x);
  else if constexpr (op == U::LOGARITHM_ONE_PLUS)
    return log1pf(x);
  else if constexpr (op == U::LOGICAL_NOT)
    return !x;
  else if constexpr (op == U::NEGATE)
    return C(-x);
  else if constexpr (op == U::NEARBY_INT)
    return nearbyintf(x);
  else if constexpr (op == U::POPCOUNT)
    return C(__builtin_popcount(unsigned(x)));
  else if constexpr (op == U::RELU)
    return x > 0 ? x : C(0);
  else if constexpr (op == U::SIGNUM)
    return x > 0 ? C(1) : x < 0 ? C(-1) : C(0);
  else if constexpr (op == U::SIN)
    return __builtin_sinf(x);
  else if constexpr (op == U::TAN)
    return __builtin_sinf(x) / __builtin_cosf(x);
  else if constexpr (op == U::TANH)
    return __builtin_tanhf(x);
  else if constexpr (op == U::ROUND)
    return __builtin_roundf(x);
  else if constexpr (op == U::SQRT) {
    if constexpr (fp)
      return __builtin_sqrtf(x);
    else
      return C(__builtin_sqrtf(float(x)));
  } else if constexpr (op == U::SQUARE)
    return C(x * x);
  else if constexpr (op == U::SIGMOID)
    return 1.0f / (1.0f + __builtin_expf(-x));
  else if constexpr (op == U::RSQRT)
    return 1.0f / __builtin_sqrtf(x);
  else
    return __builtin_truncf(x); // TRUNC
}

template <expr::BinaryOpType op, class C> POPOPS_INLINE auto binaryOp(C a, C b) {
  using B = expr::BinaryOpType;
  constexpr bool fp = __is_same(C, float);
  if constexpr (op == B::ADD)
    return C(a + b);
  else if constexpr (op == B::ATAN2)
    return atan2f(a, b);
  else if constexpr (op == B::BITWISE_AND)
    return C(a & b);
  else if constexpr (op == B::BITWISE_OR)
    return C(a | b);
  else if constexpr (op == B::BITWISE_XOR)
    return C(a ^ b);
  else if constexpr (op == B::BITWISE_XNOR)
    return C(~(a ^ b));
  else if constexpr (op == B::DIVIDE)
    return C(a / b);
  else if constexpr (op == B::EQUAL)
    return a == b;
  else if constexpr (op == B::GREATER_THAN_EQUAL)
    return a >= b;
  else if constexpr (op == B::GREATER_THAN)
    return a > b;
  else if constexpr (op == B::INV_STD_DEV_TO_VARIANCE)
    return 1.0f / (a * a) - b;
  else if constexpr (op == B::LESS_THAN_EQUAL)
    return a <= b;
  else if constexpr (op == B::LOGICAL_AND)
    return a && b;
  else if constexpr (op == B::LOGICAL_OR)
    return a || b;
  else if constexpr (op == B::LESS_THAN)
    return a < b;
  else if constexpr (op == B::MAXIMUM) {
    if constexpr (fp)
      return __builtin_fmaxf(a, b);
    else
      return a > b ? a : b;
  } else if constexpr (op == B::MINIMUM) {
    if constexpr (fp)
      return __builtin_fminf(a, b);
    else
      return a < b ? a : b;
  } else if constexpr (op == B::MULTIPLY)
    return C(a * b);
  else if constexpr (op == B::NOT_EQUAL)
    return a != b;
  else if constexpr (op == B::POWER)
    return __builtin_powf(a, b);
  else if constexpr (op == B::REMAINDER) {
    if constexpr (fp)
      return fmodf(a, b);
    else
      return C(a % b);
  } else if constexpr (op == B::SHIFT_LEFT)
    return C(a << b);
  else if constexpr (op == B::SHIFT_RIGHT)
    return C(unsigned(a) >> b);
  else if constexpr (op == B::SHIFT_RIGHT_SIGN_EXTEND)
    return C(a >> b);
  else if constexpr (op == B::SUBTRACT)
    return C(a - b);
  else
    return 1.0f / __builtin_sqrtf(a + b); // VARIANCE_TO_INV_STD_DEV
}

#undef POPOPS_INLINE

} // namespace device
} // namespace popops
