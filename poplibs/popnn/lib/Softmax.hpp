// Softmax and its gradient over the innermost dimension, composed of popops reductions and maps:
// shared by nonLinearity (the SOFTMAX types) and logSoftmax.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <popops/OperationDef.hpp>

namespace popnn::internal {

/// t = scale * softmax(t) along the innermost dimension; `stable` subtracts each row's maximum
/// before the exponential.
void softmaxInPlace(poplar::Graph &graph, const poplar::Tensor &t, bool stable, float scale,
                    poplar::program::Sequence &prog, const poplar::DebugContext &dc);

/// The input gradient of out = scale * softmax(x): out * (outGrad - sum(outGrad * out) / scale).
poplar::Tensor softmaxInputGradient(poplar::Graph &graph, const poplar::Tensor &out,
                                    const poplar::Tensor &outGrad, float scale,
                                    poplar::program::Sequence &prog,
                                    const poplar::DebugContext &dc);

/// The innermost dimension of `t` reduced with `op` into `type`, keeping it as size 1 so that
/// the result broadcasts against `t`.
poplar::Tensor reduceInnermost(poplar::Graph &graph, const poplar::Tensor &t,
                               const poplar::Type &type, popops::Operation op,
                               poplar::program::Sequence &prog, const poplar::DebugContext &dc);

} // namespace popnn::internal
