// Setting every element of a tensor to zero.
#ifndef popops_Zero_hpp
#define popops_Zero_hpp

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popops {

/// Appends to `prog` a compute set setting every element of `t` to 0.
void zero(poplar::Graph &graph, poplar::Tensor t, poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext = {});
/// Adds to `cs` the vertices zeroing `t`.
void zero(poplar::Graph &graph, const poplar::Tensor &t, poplar::ComputeSet cs);
/// Adds to `cs` a vertex on `tile` zeroing `t`'s elements in `tileRegions` (of t flattened).
void zero(poplar::Graph &graph, const poplar::Tensor &t,
          const std::vector<poplar::Interval> &tileRegions, unsigned tile, poplar::ComputeSet cs);

} // namespace popops

#endif
