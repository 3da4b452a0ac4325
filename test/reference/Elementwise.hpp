// Host reference for popops' element-wise ops: each op in double precision, the result rounded
// to the output type as the device stores it.
#pragma once

#include <poplar/Type.hpp>
#include <popops/ExprOp.hpp>

namespace popsdk::reference {

/// op(x) for an element of `type`; comparisons and tests give 0 or 1.
double unaryOp(popops::expr::UnaryOpType op, poplar::Type type, double x);
double binaryOp(popops::expr::BinaryOpType op, poplar::Type type, double a, double b);
/// Whether op's result is BOOL rather than the input type.
bool unaryIsPredicate(popops::expr::UnaryOpType op);
bool binaryIsPredicate(popops::expr::BinaryOpType op);

} // namespace popsdk::reference
