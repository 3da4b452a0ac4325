// Host inputs for the element-wise vertices: each op's operands in its domain (no division by
// zero, logarithms of positive numbers, shifts below 32, products exact in double), exactly
// representable in the element type, and the tolerance each op's results are checked with.
#pragma once

#include <poplar/Type.hpp>
#include <popops/ExprOp.hpp>

#include <cstddef>
#include <vector>

namespace popsdk::test {

std::vector<double> unaryInputs(popops::expr::UnaryOpType op, poplar::Type type, std::size_t n);

struct BinaryInputs {
  std::vector<double> in1, in2;
};
BinaryInputs binaryInputs(popops::expr::BinaryOpType op, poplar::Type type, std::size_t n);

/// 0 when the device must match the reference exactly (integer and bool ops, and float and half
/// ops that IEEE arithmetic rounds once, which the reference's double then matches); else the
/// relative tolerance of a transcendental op (a few float ulps, one half ulp).
double unaryTolerance(popops::expr::UnaryOpType op, poplar::Type type);
double binaryTolerance(popops::expr::BinaryOpType op, poplar::Type type);

} // namespace popsdk::test
