// Gathers: slices of a tensor at run-time indices, stitched into one tensor: along one axis, or
// XLA's general gather (windows at start indices into several dimensions).
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

/// A new tensor of `inputShape` laid out for the XLA gather below with these `sliceSizes` and
/// `startIndexMap`: the indexed dimensions as rows, every other element a column spread over the
/// tiles.
poplar::Tensor createGatherInput(poplar::Graph &graph, const poplar::Type &type,
                                 const std::vector<std::size_t> &inputShape,
                                 const std::vector<std::size_t> &sliceSizes,
                                 std::vector<unsigned> startIndexMap,
                                 const poplar::DebugContext &debugContext = {});

/// XLA's gather: for each index vector of `indices` (the dimension indexVectorDim; scalars when it
/// equals indices' rank), a window of `sliceSizes` of `input` starting there (component k gives
/// the start in dimension startIndexMap[k], other dimensions start at 0; starts are clamped so
/// the window fits). The window dimensions in collapsedSliceDims (of size 1) are dropped; the
/// others are the output dimensions `offsetDims`, the remaining output dimensions being those of
/// indices without indexVectorDim.
poplar::Tensor gather(poplar::Graph &graph, const poplar::Tensor &input,
                      const poplar::Tensor &indices, std::size_t indexVectorDim,
                      const std::vector<std::size_t> &offsetDims,
                      const std::vector<std::size_t> &sliceSizes,
                      const std::vector<std::size_t> &collapsedSliceDims,
                      const std::vector<unsigned> &startIndexMap, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &optionFlags = {});

} // namespace popops

#endif
