// PopLibs' inner-loop cost of each element-wise op for each element type, looked up from one
// table keyed by the ops of codelets/popops/ElementwiseOps.hpp (ElementwiseOpCosts.cpp).
#pragma once

#include <poplar/Type.hpp>
#include <popops/ExprOp.hpp>

namespace popops::internal {

/// One trip of an op's inner loop (PopLibs' OpPerformanceInfo). A `natural` trip handles the
/// target's natural vector (Target::getVectorWidth) in cyclesPerLoop plus the formula's loop
/// overhead; otherwise a trip handles `unroll` elements in cyclesPerLoop, or, with unroll 0 (unary
/// ops only), one element in cyclesPerLoop plus the overhead.
struct LoopCost {
  unsigned cyclesPerLoop = 0;
  bool natural = false;
  unsigned unroll = 0;
};

/// The loop cost of `op` on elements of `type`; throws poputil::poplibs_error, naming the op and
/// the type, for a pair popops has no vertex for.
LoopCost unaryLoopCost(expr::UnaryOpType op, const poplar::Type &type);
LoopCost binaryLoopCost(expr::BinaryOpType op, const poplar::Type &type);

} // namespace popops::internal
