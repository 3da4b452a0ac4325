// Host-transfer layouts: elements spread evenly over the tiles in grains of whole 32-bit words
// (so no two tiles share a word of a stream copy), each row of a host-sliceable tensor on its own.
#include <popops/HostSliceTensor.hpp>

#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>

namespace popops {

using namespace poplar;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

/// Maps `t` evenly over the tiles in grains of whole 32-bit words.
void spreadForHost(Graph &graph, const Tensor &t) {
  const unsigned grain = std::max(1u, 4 / unsigned(graph.getTarget().getTypeSize(t.elementType())));
  poputil::mapTensorLinearly(graph, t, 0, grain);
}

} // namespace

IndicesAndTensor createHostSliceableTensor(Graph &graph, const Type &type,
                                           const std::vector<std::size_t> &shape, const bool isRead,
                                           const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, shape, isRead));
  if (shape.size() != 2)
    raise<poputil::poplibs_error>("popops::createHostSliceableTensor: shape ", shapeText(shape),
                                  " must be 2-D [slice indices, elements per slice]");
  IndicesAndTensor out;
  out.tensor = graph.addVariable(type, shape, {di, "hostSliceable"});
  for (std::size_t r = 0; r < shape[0]; ++r)
    spreadForHost(graph, out.tensor[r]);
  out.indices = graph.addVariable(UNSIGNED_INT, {shape[0]}, {di, "indices"});
  graph.setTileMapping(out.indices, 0);
  di.addOutput(out.tensor);
  return out;
}

Tensor createHostTransferableTensor(Graph &graph, const Type &type,
                                    const std::vector<std::size_t> &shape, bool isRead,
                                    const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, shape, isRead));
  Tensor t = graph.addVariable(type, shape, {di, "hostTransferable"});
  spreadForHost(graph, t);
  di.addOutput(t);
  return t;
}

} // namespace popops
