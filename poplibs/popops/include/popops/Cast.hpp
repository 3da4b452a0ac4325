// Element type conversion of tensors (float <-> half <-> int <-> unsigned <-> bool), as the IPU
// converts: half rounds to nearest even, float to int truncates toward zero, x != 0 to bool.
#ifndef popops_Cast_hpp
#define popops_Cast_hpp

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popops {

/// A new tensor of `dstType` laid out like `src`, filled by `prog`.
poplar::Tensor cast(poplar::Graph &graph, const poplar::Tensor &src, const poplar::Type &dstType,
                    poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});
/// A program that converts `src` into the existing tensor `dst` (same shape).
poplar::program::Program cast(poplar::Graph &graph, poplar::Tensor src, poplar::Tensor dst,
                              const poplar::DebugContext &debugContext = {});
/// Adds to `cs` the vertices that convert `src` into `dst`.
void cast(poplar::Graph &graph, poplar::Tensor src, poplar::Tensor dst, poplar::ComputeSet cs);
/// A new tensor of `dstType` whose conversion from `src` runs in `cs`.
poplar::Tensor cast(poplar::Graph &graph, poplar::Tensor src, const poplar::Type &dstType,
                    poplar::ComputeSet cs, const poplar::DebugContext &debugContext = {});
/// Converts `src` into `dst` in `prog`.
void castWithOutput(poplar::Graph &graph, const poplar::Tensor &src, const poplar::Tensor &dst,
                    poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif
