// Gathers: slices of a tensor at run-time indices along one axis, stitched into one tensor.
#ifndef popops_Gather_hpp
#define popops_Gather_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <vector>

namespace popops {

struct GatherParams {
  /// Suggested maximum number of elements to place on a tile.
  std::size_t maxElementsPerTile = 65535;

  GatherParams() = default;
  GatherParams(std::size_t maxElementsPerTile_) : maxElementsPerTile(maxElementsPerTile_) {}
};

/// A new tensor of `shape` laid out for gather along `axis`.
poplar::Tensor createGatherInput(poplar::Graph &graph, const poplar::Type &type,
                                 const std::vector<std::size_t> &operandShape, unsigned axis,
                                 GatherParams params = {},
                                 const poplar::DebugContext &debugContext = {});

/// The slices of `input` at `indices` (UNSIGNED_INT or INT, any shape) along `axis`: shape
/// input[:axis] + indices' shape + input[axis+1:]. An index beyond the axis gives zeros.
poplar::Tensor gather(poplar::Graph &graph, const poplar::Tensor &input,
                      const poplar::Tensor &indices, unsigned axis, poplar::program::Sequence &prog,
                      GatherParams params, const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &optionFlags = {});

} // namespace popops

#endif
