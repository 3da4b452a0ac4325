// Setting every element of a tensor to one value.
#ifndef popops_Fill_hpp
#define popops_Fill_hpp

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popops {

/// Appends to `prog` a compute set setting every element of `t` to `fillValue`.
template <typename FillValueType>
void fill(poplar::Graph &graph, const poplar::Tensor &t, poplar::program::Sequence &prog,
          FillValueType fillValue, const poplar::DebugContext &debugContext = {});
/// Adds to `cs` the vertices filling `t`, on the tiles that hold it.
template <typename FillValueType>
void fill(poplar::Graph &graph, const poplar::Tensor &t, poplar::ComputeSet cs,
          FillValueType fillValue);
/// Adds to `cs` a vertex on `tile` filling `t`'s elements in `tileRegions` (of t flattened).
template <typename FillValueType>
void fill(poplar::Graph &graph, const poplar::Tensor &t,
          const std::vector<poplar::Interval> &tileRegions, unsigned tile, poplar::ComputeSet cs,
          FillValueType fillValue);

} // namespace popops

#endif
