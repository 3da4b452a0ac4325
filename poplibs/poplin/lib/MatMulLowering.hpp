// Builds a planned matmul into a graph: tensors laid out for the plan, and the programs that
// compute a product (AMP partials, then the reduction over input-channel parts or a cast).
#pragma once

#include "MatMulPlan.hpp"

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace poplin::internal {

enum class MatMulOperand { LHS, RHS, Output };

/// A new [G,M,K], [G,K,N] or [G,M,N] tensor with each block on the tile the plan reads or
/// writes it from.
poplar::Tensor createOperand(poplar::Graph &graph, const MatMulPlan &plan, MatMulOperand which,
                             const poplar::Type &type, const poplar::DebugContext &dc);

/// Adds out = A.B for grouped A [G,M,K], B [G,K,N], out [G,M,N] to `prog`.
void addMatMul(poplar::Graph &graph, const MatMulPlan &plan, const poplar::Tensor &A,
               const poplar::Tensor &B, const poplar::Tensor &out, poplar::program::Sequence &prog,
               const poplar::DebugContext &dc);

} // namespace poplin::internal
