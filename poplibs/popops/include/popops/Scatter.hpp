// XLA-style scatter: windows of `updates` written (or combined) into `operand` at run-time
// indices.
#ifndef popops_Scatter_hpp
#define popops_Scatter_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <functional>
#include <vector>

namespace popops {

/// Writes each window of `updates` into `operand` at the position its scatter index gives, as
/// XLA's scatter defines it: `indices` holds the start indices along `indexVectorDim` (or, if
/// indexVectorDim == indices.rank(), one index per element); `updateWindowDims` are the
/// dimensions of `updates` that span a window, `insertWindowDims` the operand dimensions of size
/// 1 a window leaves out, and index component k addresses operand dimension
/// scatterDimsToOperandDims[k]. Windows are written in scatter-index order (a later one wins); a
/// window whose start index is beyond its dimension is skipped, and one that runs past the end
/// wraps round, as dynamicUpdate does.
void scatter(poplar::Graph &graph, const poplar::Tensor &operand, const poplar::Tensor &indices,
             const poplar::Tensor &updates, std::size_t indexVectorDim,
             std::vector<unsigned> updateWindowDims, std::vector<std::size_t> insertWindowDims,
             std::vector<unsigned> scatterDimsToOperandDims, poplar::program::Sequence &prog,
             const poplar::DebugContext &debugContext = {});

/// The combination of the current window of the operand (first) and the update window (second)
/// that scatter writes back.
using UpdateComputationFunc = std::function<poplar::Tensor(
    poplar::Graph &, poplar::Tensor &, poplar::Tensor &, poplar::program::Sequence &)>;

/// scatter writing updateComputation(current window, update window) instead of the update.
void scatter(poplar::Graph &graph, const poplar::Tensor &operand, const poplar::Tensor &indices,
             const poplar::Tensor &updates, std::size_t indexVectorDim,
             std::vector<unsigned> updateWindowDims, std::vector<std::size_t> insertWindowDims,
             std::vector<unsigned> scatterDimsToOperandDims,
             UpdateComputationFunc &updateComputation, poplar::program::Sequence &prog,
             const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif
