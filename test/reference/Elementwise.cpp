// Host reference for popops' element-wise ops.
#include "Elementwise.hpp"

#include "HostData.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace popsdk::reference {

using popops::expr::BinaryOpType;
using popops::expr::UnaryOpType;
using namespace poplar;

namespace {

bool isInteger(Type t) { return t == INT || t == UNSIGNED_INT; }

/// Integer results wrap as 32-bit arithmetic does on the tile.
double wrap(Type t, double x) {
  if (t == INT)
    return double(std::int32_t(std::uint32_t(std::int64_t(x))));
  if (t == UNSIGNED_INT)
    return double(std::uint32_t(std::int64_t(x)));
  return x;
}

} // namespace

bool unaryIsPredicate(UnaryOpType op) {
  return op == UnaryOpType::IS_FINITE || op == UnaryOpType::IS_INF || op == UnaryOpType::IS_NAN;
}

bool binaryIsPredicate(BinaryOpType op) {
  switch (op) {
  case BinaryOpType::EQUAL:
  case BinaryOpType::NOT_EQUAL:
  case BinaryOpType::LESS_THAN:
  case BinaryOpType::LESS_THAN_EQUAL:
  case BinaryOpType::GREATER_THAN:
  case BinaryOpType::GREATER_THAN_EQUAL:
    return true;
  default:
    return false;
  }
}

double unaryOp(UnaryOpType op, Type type, double x) {
  using U = UnaryOpType;
  double r;
  switch (op) {
  case U::ABSOLUTE:
    r = std::fabs(x);
    break;
  case U::ASIN:
    r = std::asin(x);
    break;
  case U::BITWISE_NOT:
    r = type == INT ? double(~std::int32_t(x)) : double(~std::uint32_t(x));
    break;
  case U::CBRT:
    r = std::cbrt(x);
    break;
  case U::CEIL:
    r = std::ceil(x);
    break;
  case U::COS:
    r = std::cos(x);
    break;
  case U::COUNT_LEADING_ZEROS: {
    std::uint32_t v = std::uint32_t(std::int64_t(x));
    int n = 0;
    while (n < 32 && !(v & (0x80000000u >> n)))
      ++n;
    r = n;
    break;
  }
  case U::ERF:
    r = std::erf(x);
    break;
  case U::EXPONENT:
    r = std::exp(x);
    break;
  case U::EXPONENT_MINUS_ONE:
    r = std::expm1(x);
    break;
  case U::EXPONENT2:
    r = std::exp2(x);
    break;
  case U::FLOOR:
    r = std::floor(x);
    break;
  case U::GELU_ERF:
    r = 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
    break;
  case U::INVERSE:
    r = 1 / x;
    break;
  case U::IS_FINITE:
    return std::isfinite(x);
  case U::IS_INF:
    return std::isinf(x);
  case U::IS_NAN:
    return std::isnan(x);
  case U::LOGARITHM:
    r = std::log(x);
    break;
  case U::LOGARITHM_ONE_PLUS:
    r = std::log1p(x);
    break;
  case U::LOGICAL_NOT:
    return x == 0;
  case U::NEGATE:
    r = -x;
    break;
  case U::NEARBY_INT:
    r = std::nearbyint(x);
    break;
  case U::POPCOUNT: {
    std::uint32_t v = std::uint32_t(std::int64_t(x));
    r = __builtin_popcount(v);
    break;
  }
  case U::RELU:
    r = x > 0 ? x : 0;
    break;
  case U::SIGNUM:
    r = x > 0 ? 1 : x < 0 ? -1 : 0;
    break;
  case U::SIN:
    r = std::sin(x);
    break;
  case U::TAN:
    r = std::tan(x);
    break;
  case U::TANH:
    r = std::tanh(x);
    break;
  case U::ROUND:
    r = std::round(x);
    break;
  case U::SQRT:
    r = isInteger(type) ? std::trunc(std::sqrt(x)) : std::sqrt(x);
    break;
  case U::SQUARE:
    r = x * x;
    break;
  case U::SIGMOID:
    r = 1 / (1 + std::exp(-x));
    break;
  case U::RSQRT:
    r = 1 / std::sqrt(x);
    break;
  case U::TRUNC:
    r = std::trunc(x);
    break;
  default:
    throw std::invalid_argument("reference::unaryOp: unknown op");
  }
  return test::roundTo(type, wrap(type, r));
}

double binaryOp(BinaryOpType op, Type type, double a, double b) {
  using B = BinaryOpType;
  auto i = [](double x) { return std::int64_t(x); };
  double r;
  switch (op) {
  case B::ADD:
    r = a + b;
    break;
  case B::ATAN2:
    r = std::atan2(a, b);
    break;
  case B::BITWISE_AND:
    r = double(i(a) & i(b));
    break;
  case B::BITWISE_OR:
    r = double(i(a) | i(b));
    break;
  case B::BITWISE_XOR:
    r = double(i(a) ^ i(b));
    break;
  case B::BITWISE_XNOR:
    r = double(~(i(a) ^ i(b)));
    break;
  case B::DIVIDE:
    r = isInteger(type) ? std::trunc(a / b) : a / b;
    break;
  case B::EQUAL:
    return a == b;
  case B::GREATER_THAN_EQUAL:
    return a >= b;
  case B::GREATER_THAN:
    return a > b;
  case B::INV_STD_DEV_TO_VARIANCE:
    r = 1 / (a * a) - b;
    break;
  case B::LESS_THAN_EQUAL:
    return a <= b;
  case B::LOGICAL_AND:
    return a != 0 && b != 0;
  case B::LOGICAL_OR:
    return a != 0 || b != 0;
  case B::LESS_THAN:
    return a < b;
  case B::MAXIMUM:
    r = std::fmax(a, b);
    break;
  case B::MINIMUM:
    r = std::fmin(a, b);
    break;
  case B::MULTIPLY:
    r = a * b;
    break;
  case B::NOT_EQUAL:
    return a != b;
  case B::POWER:
    r = std::pow(a, b);
    break;
  case B::REMAINDER:
    r = isInteger(type) ? double(i(a) % i(b)) : std::fmod(a, b);
    break;
  case B::SHIFT_LEFT:
    r = double(std::uint32_t(i(a)) << (i(b) & 31));
    break;
  case B::SHIFT_RIGHT:
    r = double(std::uint32_t(i(a)) >> (i(b) & 31));
    break;
  case B::SHIFT_RIGHT_SIGN_EXTEND:
    r = double(std::int32_t(i(a)) >> (i(b) & 31));
    break;
  case B::SUBTRACT:
    r = a - b;
    break;
  case B::VARIANCE_TO_INV_STD_DEV:
    r = 1 / std::sqrt(a + b);
    break;
  default:
    throw std::invalid_argument("reference::binaryOp: unknown op");
  }
  return test::roundTo(type, wrap(type, r));
}

} // namespace popsdk::reference
