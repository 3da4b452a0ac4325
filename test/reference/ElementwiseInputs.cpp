// Operand domains and tolerances of the element-wise ops.
#include "ElementwiseInputs.hpp"

#include "HostData.hpp"

#include <cmath>
#include <limits>

namespace popsdk::test {

using namespace poplar;
using popops::expr::BinaryOpType;
using popops::expr::UnaryOpType;

namespace {

constexpr double kIntMin = -2147483648.0, kIntMax = 2147483647.0, kUnsignedMax = 4294967295.0;

bool isInteger(Type t) { return t == INT || t == UNSIGNED_INT; }

/// Flips the sign of every other value (for divisors drawn from a positive range).
void alternateSigns(std::vector<double> &v) {
  for (std::size_t i = 1; i < v.size(); i += 2)
    v[i] = -v[i];
}

/// Relative tolerance of an approximated function's result in `type`.
double approximate(Type type) { return type == HALF ? 1.0 / 1024 : 1e-5; }

} // namespace

std::vector<double> unaryInputs(UnaryOpType op, Type type, std::size_t n) {
  using U = UnaryOpType;
  if (type == BOOL)
    return hostData(BOOL, n, 0, 1);
  if (isInteger(type)) {
    switch (op) {
    case U::BITWISE_NOT:
    case U::COUNT_LEADING_ZEROS:
    case U::POPCOUNT:
      return type == INT ? hostData(INT, n, kIntMin, kIntMax) : hostData(type, n, 0, kUnsignedMax);
    case U::SQRT:
      return hostData(type, n, 0, 1e6);
    case U::SQUARE:
      return type == INT ? hostData(INT, n, -46340, 46340) : hostData(type, n, 0, 65535);
    default:
      return hostData(type, n, -1000, 1000);
    }
  }
  switch (op) {
  case U::ASIN:
    return hostData(type, n, -1, 1);
  case U::LOGARITHM:
  case U::SQRT:
  case U::RSQRT:
  case U::INVERSE:
    return hostData(type, n, 1.0 / 64, 8);
  case U::LOGARITHM_ONE_PLUS:
    return hostData(type, n, -0.5, 8);
  case U::COS:
  case U::SIN:
    return hostData(type, n, -3, 3);
  case U::TAN:
    return hostData(type, n, -1.2, 1.2);
  case U::EXPONENT:
  case U::EXPONENT2:
  case U::EXPONENT_MINUS_ONE:
    return hostData(type, n, -4, 4);
  case U::IS_FINITE:
  case U::IS_INF:
  case U::IS_NAN: {
    auto v = hostData(type, n, -8, 8);
    const double special[] = {std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity(),
                              std::numeric_limits<double>::quiet_NaN()};
    for (std::size_t i = 0; i < v.size(); i += 2)
      v[i] = special[(i / 2) % 3];
    return v;
  }
  default:
    return hostData(type, n, -8, 8);
  }
}

BinaryInputs binaryInputs(BinaryOpType op, Type type, std::size_t n) {
  using B = BinaryOpType;
  BinaryInputs in;
  auto both = [&](double lo1, double hi1, double lo2, double hi2) {
    in.in1 = hostData(type, n, lo1, hi1, 1);
    in.in2 = hostData(type, n, lo2, hi2, 2);
  };
  bool integer = isInteger(type);
  double span = type == HALF ? 8 : 100;
  switch (op) {
  case B::DIVIDE:
  case B::REMAINDER:
    if (integer)
      both(type == INT ? -1e6 : 0, type == INT ? 1e6 : kUnsignedMax, 1, 1000);
    else
      both(-span, span, 0.5, type == HALF ? 4 : 8);
    if (type != UNSIGNED_INT)
      alternateSigns(in.in2);
    return in;
  case B::MULTIPLY: // products below 2^52: exact in the reference's double before wrapping
    if (integer)
      both(type == INT ? -67108864 : 0, 67108864, type == INT ? -67108864 : 0, 67108864);
    else
      both(-span, span, -span, span);
    return in;
  case B::SHIFT_LEFT:
  case B::SHIFT_RIGHT:
  case B::SHIFT_RIGHT_SIGN_EXTEND:
    both(type == INT ? kIntMin : 0, type == INT ? kIntMax : kUnsignedMax, 0, 31);
    return in;
  case B::POWER:
    both(1.0 / 64, 4, -3, 3);
    return in;
  case B::ATAN2: // with the signed zeros IEEE atan2 tells apart: (-0, -1) is -pi, (+0, -1) pi
    both(-span, span, -span, span);
    for (std::size_t i = 3; i < n; i += 16) {
      in.in1[i] = i % 32 == 3 ? -0.0 : 0.0;
      in.in2[i] = -1;
    }
    return in;
  case B::INV_STD_DEV_TO_VARIANCE:
    both(0.25, 8, 0, 1);
    return in;
  case B::VARIANCE_TO_INV_STD_DEV:
    both(0, 8, 1.0 / 64, 1);
    return in;
  default:
    break;
  }
  if (type == BOOL)
    both(0, 1, 0, 1);
  else if (integer)
    both(type == INT ? kIntMin : 0, type == INT ? kIntMax : kUnsignedMax, type == INT ? kIntMin : 0,
         type == INT ? kIntMax : kUnsignedMax);
  else
    both(-span, span, -span, span);
  // Every fourth pair equal, so that comparisons, MAXIMUM and MINIMUM see ties.
  for (std::size_t i = 0; i < n; i += 4)
    in.in2[i] = in.in1[i];
  return in;
}

double unaryTolerance(UnaryOpType op, Type type) {
  using U = UnaryOpType;
  switch (op) {
  case U::ASIN:
  case U::CBRT:
  case U::COS:
  case U::ERF:
  case U::EXPONENT:
  case U::EXPONENT_MINUS_ONE:
  case U::EXPONENT2:
  case U::GELU_ERF:
  case U::LOGARITHM:
  case U::LOGARITHM_ONE_PLUS:
  case U::SIN:
  case U::TAN:
  case U::TANH:
  case U::SIGMOID:
  case U::RSQRT:
    return approximate(type);
  default:
    return 0;
  }
}

double binaryTolerance(BinaryOpType op, Type type) {
  using B = BinaryOpType;
  switch (op) {
  case B::ATAN2:
  case B::POWER:
  case B::INV_STD_DEV_TO_VARIANCE: // two roundings on the device, one in the reference
  case B::VARIANCE_TO_INV_STD_DEV:
    return approximate(type);
  default:
    return 0;
  }
}

} // namespace popsdk::test
