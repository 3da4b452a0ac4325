// Normalising 3-channel images into 4-channel ones (the fourth channel 0), per-channel offset and
// scale, and the input layout that keeps each pixel on one tile.
#ifndef popops_NormaliseImage_hpp
#define popops_NormaliseImage_hpp

#include <poplar/ArrayRef.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A new UNSIGNED_CHAR, HALF or FLOAT tensor of `shape` (rank 2 or more, innermost dimension 3)
/// spread over the tiles in whole pixels, as normaliseImage needs.
poplar::Tensor createNormaliseImageInput(poplar::Graph &graph, const poplar::Type &type,
                                         const poplar::ArrayRef<std::size_t> shape,
                                         const poplar::DebugContext &debugContext = {});

/// A new tensor of tIn's shape with an innermost dimension of 4: channel c < 3 of each pixel is
/// (tIn[c] * inScale - offsets[c]) * scales[c], channel 3 is 0. UNSIGNED_CHAR input gives HALF,
/// otherwise the input's type; `offsets` and `scales` are {3} tensors of the output type. Each
/// tile's regions of tIn must hold whole pixels (createNormaliseImageInput lays them out so).
poplar::Tensor normaliseImage(poplar::Graph &graph, poplar::program::Sequence &seq,
                              poplar::Tensor tIn, float inScale, poplar::Tensor offsets,
                              poplar::Tensor scales, const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif
