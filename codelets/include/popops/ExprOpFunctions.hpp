// What each element-wise op computes on the tile: popops' vertices and the codelets that
// popops::map generates for fused expressions both call these, so an op means one thing.
// half values are computed in float and rounded to half when stored, as the IPU does.
#pragma once

#include <poplar/HalfFloat.hpp>
#include <popops/ExprOp.hpp>

// The tile's C math library (popc's <math.h>): the functions the ISA has as instructions, and the
// rest (atan2f, erff, expm1f, log1pf, cbrtf, ...) built from them.
#include <math.h>

namespace popops {
namespace device {

/// The type an element is computed in: float for half, the type itself otherwise.
template <class T> struct ComputeType { using type = T; };
template <> struct ComputeType<half> { using type = float; };
template <class T> using Compute = typename ComputeType<T>::type;

template <class T> constexpr bool isFloating() { return __is_same(T, float) || __is_same(T, half); }

#define POPOPS_INLINE __attribute__((always_inline)) inline

template <expr::UnaryOpType op, class C> POPOPS_INLINE auto unaryOp(C x) {
  using U = expr::UnaryOpType;
  constexpr bool fp = __is_same(C, float);
  if constexpr (op == U::ABSOLUTE) {
    if constexpr (fp)
      return __builtin_fabsf(x);
    else
      return x < 0 ? -x : x;
  } else if constexpr (op == U::ASIN)
    return ::asinf(x);
  else if constexpr (op == U::BITWISE_NOT)
    return C(~x);
  else if constexpr (op == U::CBRT) {
    return ::cbrtf(x);
  } else if constexpr (op == U::CEIL)
    return __builtin_ceilf(x);
  else if constexpr (op == U::COS)
    return __builtin_cosf(x);
  else if constexpr (op == U::COUNT_LEADING_ZEROS)
    return C(x == 0 ? 32 : __builtin_clz(unsigned(x)));
  else if constexpr (op == U::ERF)
    return ::erff(x);
  else if constexpr (op == U::EXPONENT)
    return __builtin_expf(x);
  else if constexpr (op == U::EXPONENT_MINUS_ONE)
    return ::expm1f(x);
  else if constexpr (op == U::EXPONENT2)
    return ::exp2f(x);
  else if constexpr (op == U::FLOOR)
    return __builtin_floorf(x);
  else if constexpr (op == U::GELU_ERF)
    return 0.5f * x * (1.0f + ::erff(x * 0.70710678118f));
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
    return ::log1pf(x);
  else if constexpr (op == U::LOGICAL_NOT)
    return !x;
  else if constexpr (op == U::NEGATE)
    return C(-x);
  else if constexpr (op == U::NEARBY_INT)
    return ::nearbyintf(x);
  else if constexpr (op == U::POPCOUNT)
    return C(__builtin_popcount(unsigned(x)));
  else if constexpr (op == U::RELU)
    return x > 0 ? x : C(0);
  else if constexpr (op == U::SIGNUM)
    return x > 0 ? C(1) : x < 0 ? C(-1) : C(0);
  else if constexpr (op == U::SIN)
    return __builtin_sinf(x);
  else if constexpr (op == U::TAN)
    return ::tanf(x);
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
    return ::atan2f(a, b);
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
      // One divide, not <math.h>'s exact subtraction loop: as fast as PopLibs prices it, exact
      // while the quotient's integer part fits a float's 24 bits.
      return a - __builtin_truncf(a / b) * b;
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
