// popops::fill and popops::zero: Fill/Fill2d vertices over the tensor's tile regions.
#include <popops/Fill.hpp>
#include <popops/Zero.hpp>

#include "TileRegions.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include "support/Raise.hpp"

namespace popops {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

void checkFillable(const Tensor &t) {
  if (t.containsAliases())
    raise<poputil::poplibs_error>("popops::fill: tensor ", shapeText(t.shape()),
                                  " has elements that alias each other");
}

} // namespace

template <typename FillValueType>
void fill(Graph &graph, const Tensor &t, ComputeSet cs, FillValueType fillValue) {
  checkFillable(t);
  Type type = t.elementType();
  internal::addElementwiseVertices(
      graph, cs, t, "popops::fill", poputil::templateVertex("popops::Fill", type),
      poputil::templateVertex("popops::Fill2d", type), {{"out", t.flatten()}},
      [&](VertexRef v) { graph.setInitialValue(v["in"], fillValue); });
}

template <typename FillValueType>
void fill(Graph &graph, const Tensor &t, const std::vector<Interval> &tileRegions, unsigned tile,
          ComputeSet cs, FillValueType fillValue) {
  checkFillable(t);
  Tensor flat = t.flatten();
  std::vector<Tensor> slices;
  for (const auto &r : tileRegions)
    slices.push_back(flat.slice(r));
  VertexRef v = graph.addVertex(cs, poputil::templateVertex("popops::Fill2d", t.elementType()));
  graph.connect(v["out"], slices);
  graph.setInitialValue(v["in"], fillValue);
  graph.setTileMapping(v, tile);
}

template <typename FillValueType>
void fill(Graph &graph, const Tensor &t, Sequence &prog, FillValueType fillValue,
          const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, fillValue), "fill");
  ComputeSet cs = graph.addComputeSet({di, "fill"});
  fill(graph, t, cs, fillValue);
  prog.add(Execute(cs, {di}));
}

#define POPOPS_INSTANTIATE_FILL(T)                                                                 \
  template void fill<T>(Graph &, const Tensor &, Sequence &, T, const DebugContext &);             \
  template void fill<T>(Graph &, const Tensor &, ComputeSet, T);                                   \
  template void fill<T>(Graph &, const Tensor &, const std::vector<Interval> &, unsigned,          \
                        ComputeSet, T);
POPOPS_INSTANTIATE_FILL(float)
POPOPS_INSTANTIATE_FILL(double)
POPOPS_INSTANTIATE_FILL(int)
POPOPS_INSTANTIATE_FILL(unsigned)
POPOPS_INSTANTIATE_FILL(bool)
#undef POPOPS_INSTANTIATE_FILL

void zero(Graph &graph, Tensor t, Sequence &prog, const DebugContext &debugContext) {
  fill(graph, t, prog, 0, debugContext);
}
void zero(Graph &graph, const Tensor &t, ComputeSet cs) { fill(graph, t, cs, 0); }
void zero(Graph &graph, const Tensor &t, const std::vector<Interval> &tileRegions, unsigned tile,
          ComputeSet cs) {
  fill(graph, t, tileRegions, tile, cs, 0);
}

} // namespace popops
