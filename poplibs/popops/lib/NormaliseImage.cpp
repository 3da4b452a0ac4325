// normaliseImage: one NormaliseImage MultiVertex per contiguous region of whole pixels a tile
// holds, writing the region's 4-channel pixels into an output mapped alongside.
#include <popops/NormaliseImage.hpp>

#include "TileRegions.hpp"
#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <vector>

namespace popops {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

void checkImage(const std::string &api, const Type &type, const std::vector<std::size_t> &shape) {
  if (type != UNSIGNED_CHAR && type != HALF && type != FLOAT)
    raise<poputil::poplibs_error>(api, ": type ", type,
                                  " is not supported; images are unsigned char, half or float");
  if (shape.size() < 2 || shape.back() != 3)
    raise<poputil::poplibs_error>(api, ": shape ", shapeText(shape),
                                  " must have rank 2 or more and an innermost dimension of 3");
}

} // namespace

Tensor createNormaliseImageInput(Graph &graph, const Type &type, const ArrayRef<std::size_t> shape,
                                 const DebugContext &debugContext) {
  std::vector<std::size_t> s(shape.begin(), shape.end());
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, s));
  checkImage("popops::createNormaliseImageInput", type, s);
  Tensor t = graph.addVariable(type, s, {di, "image"});
  // Grains of whole pixels that are also whole 32-bit words, at least one per worker a tile.
  const unsigned grain = 3 * (4 / graph.getTarget().getTypeSize(type));
  poputil::mapTensorLinearly(graph, t, grain * graph.getTarget().getNumWorkerContexts(), grain);
  di.addOutput(t);
  return t;
}

Tensor normaliseImage(Graph &graph, Sequence &seq, Tensor tIn, float inScale, Tensor offsets,
                      Tensor scales, const DebugContext &debugContext) {
  const std::string api = "popops::normaliseImage";
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(tIn, inScale, offsets, scales));
  const Type inType = tIn.elementType();
  checkImage(api, inType, tIn.shape());
  const Type outType = inType == UNSIGNED_CHAR ? HALF : inType;
  for (const auto *t : {&offsets, &scales}) {
    const char *name = t == &offsets ? "offsets" : "scales";
    if (t->elementType() != outType || t->shape() != std::vector<std::size_t>{3})
      raise<poputil::poplibs_error>(api, ": ", name, " is ", t->elementType(), " ",
                                    shapeText(t->shape()), " but must be ", outType,
                                    " {3} (the output's type, one per channel)");
  }
  if (inScale == 0.0f)
    raise<poputil::poplibs_error>(api, ": inScale must not be 0");
  auto outShape = tIn.shape();
  outShape.back() = 4;
  Tensor out = graph.addVariable(outType, outShape, {di, "normalised"});
  Tensor inFlat = tIn.flatten(), outFlat = out.flatten();
  auto cs = graph.addComputeSet({di, api});
  const std::string vertex = poputil::templateVertex("popops::NormaliseImage", inType, outType);
  for (const auto &tr : internal::contiguousTileRegions(graph, tIn, api))
    for (const auto &r : tr.regions) {
      if (r.begin() % 3 || r.end() % 3)
        raise<poputil::poplibs_error>(api, ": tile ", tr.tile, " holds elements [", r.begin(), ", ",
                                      r.end(), ") of tIn ", shapeText(tIn.shape()),
                                      ", not whole pixels; createNormaliseImageInput lays an "
                                      "image out in whole pixels");
      const std::size_t pixels = r.size() / 3;
      Tensor o = outFlat.slice(r.begin() / 3 * 4, r.end() / 3 * 4);
      graph.setTileMapping(o, tr.tile);
      auto v = graph.addVertex(
          cs, vertex,
          {{"in", inFlat.slice(r)}, {"out", o}, {"scales", scales}, {"offsets", offsets}});
      graph.setInitialValue(v["inScale"], inScale);
      graph.setInitialValue(v["numPixels"], unsigned(pixels));
      graph.setTileMapping(v, tr.tile);
    }
  seq.add(Execute(cs, {di}));
  di.addOutput(out);
  return out;
}

} // namespace popops
