// Where an element-wise op's work lies: the regions of a flattened tensor on each tile, each
// contiguous in one variable (so a vertex can read or write it in place), and the vertices that
// cover them.
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Tensor.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace popops::internal {

struct TileRegions {
  unsigned tile;
  std::vector<poplar::Interval> regions; // of the flattened tensor, in element order
};

/// The tiles holding `t` and, for each, its regions split where `t` stops being contiguous in
/// memory. Throws poplibs_error naming `api` if part of `t` is not mapped.
std::vector<TileRegions> contiguousTileRegions(const poplar::Graph &graph, const poplar::Tensor &t,
                                               const std::string &api);

/// A field and the flattened tensor (as long as the work tensor) whose slices it connects to.
using FieldTensor = std::pair<std::string, poplar::Tensor>;

/// Adds vertices to `cs` that cover every element of the flat `work` tensor, each on the tile
/// that holds its elements: a `vertex1D` (a MultiVertex) over a tile's single region, or, for a
/// tile with several, `vertex2D`s over up to one partition of whole regions per worker (or, if
/// `vertex2D` is empty, one `vertex1D` per region). A region longer than its workers can split
/// exactly (support::maxWorkerSplitElements of the widest field type) gets a `vertex1D` per
/// piece of that length. Each field is connected to the matching
/// slice (1-D) or list of slices (2-D) of its tensor; `setup` sets each vertex's state.
void addElementwiseVertices(poplar::Graph &graph, const poplar::ComputeSet &cs,
                            const poplar::Tensor &work, const std::string &api,
                            const std::string &vertex1D, const std::string &vertex2D,
                            const std::vector<FieldTensor> &fields,
                            const std::function<void(poplar::VertexRef)> &setup = {});

} // namespace popops::internal
