// popops::CircBuf: the history is [grains, size, 4] (each entry flattened and padded to whole
// grains of 4 elements, grains spread over the tiles), so an entry is a dynamic slice of
// dimension 1 and each tile moves only its grains. The position steps with a CircBufIncrIndex
// vertex; prev(i) finds its entry with a CircOffset vertex.
#include <popops/CircBuf.hpp>

#include <popops/DynamicSlice.hpp>
#include <popops/Pad.hpp>

#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {
constexpr unsigned grainSize = 4; // 64 bits of half
}

CircBuf::CircBuf(Graph &graph, const Type &dataType, unsigned size,
                 const std::vector<std::size_t> &shape, const DebugContext &debugContext)
    : graph(graph), size_(size), shape(shape) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(dataType, size, shape));
  if (size == 0)
    raise<poputil::poplibs_error>("popops::CircBuf: size must be at least 1");
  std::size_t n = 1;
  for (auto d : shape)
    n *= d;
  const std::size_t grains = (n + grainSize - 1) / grainSize;
  padElements = unsigned(grains * grainSize - n);
  hist = graph.addVariable(dataType, {grains, std::size_t(size), std::size_t(grainSize)},
                           {di, "CircBuf"});
  poputil::mapTensorLinearly(graph, hist, 0, size * grainSize);
  index = graph.addVariable(UNSIGNED_INT, {1}, {di, "CircBufIndex"});
  graph.setInitialValue(index[0], 0u);
  graph.setTileMapping(index, 0);
}

Tensor CircBuf::prev(unsigned i, Sequence &seq, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(i));
  if (i >= size_)
    raise<poputil::poplibs_error>("popops::CircBuf::prev: entry ", i,
                                  " is not less than the buffer size ", size_);
  Tensor position = graph.addVariable(UNSIGNED_INT, {1}, {di, "offset"});
  graph.setTileMapping(position, 0);
  auto cs = graph.addComputeSet({di, "CircBufPrev"});
  auto v = graph.addVertex(cs, poputil::templateVertex("popops::CircOffset", UNSIGNED_INT),
                           {{"indexIn", index[0]}, {"indexOut", position[0]}});
  graph.setInitialValue(v["hSize"], size_);
  graph.setInitialValue(v["offset"], size_ - i);
  graph.setTileMapping(v, 0);
  seq.add(Execute(cs, {di}));
  Tensor t = dynamicSlice(graph, hist, position, {1}, {1}, seq, {di, "CircBuf"});
  t = t.flatten().slice(0, t.numElements() - padElements);
  return t.reshape(shape);
}

void CircBuf::add(Tensor t, Sequence &seq, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t));
  if (t.shape() != shape || t.elementType() != hist.elementType())
    raise<poputil::poplibs_error>("popops::CircBuf::add: t is ", t.elementType(), " ",
                                  shapeText(t.shape()), " but the buffer holds ",
                                  hist.elementType(), " ", shapeText(shape));
  auto cs = graph.addComputeSet({di, "CircBufSet"});
  auto v = graph.addVertex(cs, poputil::templateVertex("popops::CircBufIncrIndex", UNSIGNED_INT),
                           {{"index", index[0]}});
  graph.setInitialValue(v["hSize"], size_);
  graph.setTileMapping(v, 0);
  seq.add(Execute(cs, {di}));
  // The padding elements are written with the entry and dropped when it is read.
  Tensor in = pad(graph, t.flatten(), 0, std::ptrdiff_t(padElements), 0);
  dynamicUpdate(graph, hist, in.reshape({hist.dim(0), 1, hist.dim(2)}), index, {1}, {1}, seq,
                {di, "CircBuf"});
}

} // namespace popops
