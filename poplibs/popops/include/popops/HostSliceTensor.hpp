// Tensors laid out for copies to and from the host: spread over the tiles so that the host link,
// not one tile's exchange, bounds the copy.
#ifndef popops_HostSliceTensor_hpp_
#define popops_HostSliceTensor_hpp_

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <vector>

namespace popops {

/// What createHostSliceableTensor returns.
struct IndicesAndTensor {
  poplar::Tensor indices;
  poplar::Tensor tensor;
};

/// A new [slices, elements] tensor of `type` for host copies of `elements` per slice (shape must
/// be 2-D: shape[1] is the stream's or remote buffer's size, shape[0] the number of slice
/// indices, 1 when there is one), with a new UNSIGNED_INT index tensor of shape[0] elements on
/// tile 0 for the caller to fill. Each row is spread over the tiles.
IndicesAndTensor createHostSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                                           const std::vector<std::size_t> &shape, const bool isRead,
                                           const poplar::DebugContext &debugContext = {});

/// A new tensor of `shape` and `type` spread over the tiles in whole 32-bit words, for host
/// copies. `isRead` (whether the host reads it) does not change the layout here.
poplar::Tensor createHostTransferableTensor(poplar::Graph &graph, const poplar::Type &type,
                                            const std::vector<std::size_t> &shape, bool isRead,
                                            const poplar::DebugContext &debugContext = {});

} // namespace popops
#endif
