// hasNaN / hasNaNOrInf: each tile tests the regions it holds (HasNaNOrInf1D over one region, its
// workers writing a flag each; HasNaNOrInf2D per worker's share of several), then a MAX
// reduction of the float flags over the tiles, cast to BOOL.
#include <popops/NaN.hpp>

#include <popops/Cast.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>

#include "TileRegions.hpp"
#include "support/Raise.hpp"
#include "support/WorkerSplit.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/Util.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;

namespace {

Tensor check(Graph &graph, const Tensor &src, Sequence &prog, bool nanOrInf, const char *api,
             const DebugContext &dc) {
  const Type type = src.elementType();
  if (type != FLOAT && type != HALF)
    raise<poputil::poplibs_error>(api, ": src has type ", type, " but must be float or half");
  if (src.numElements() == 0) {
    Tensor out = graph.addVariable(BOOL, {}, {dc, "result"});
    graph.setTileMapping(out, 0);
    zero(graph, out, prog, {dc, "empty"});
    return out;
  }
  const Target &target = graph.getTarget();
  const unsigned workers = target.getNumWorkerContexts();
  const Tensor flat = src.flatten();
  auto cs = graph.addComputeSet({dc, api});
  std::vector<Tensor> flags;
  for (const auto &tr : internal::contiguousTileRegions(graph, src, api)) {
    // One region the workers can split exactly: one MultiVertex; else single-worker vertices.
    if (tr.regions.size() == 1 &&
        tr.regions[0].size() <= popsdk::support::maxWorkerSplitElements(target.getTypeSize(type))) {
      Tensor f = graph.addVariable(FLOAT, {workers}, {dc, "flags"});
      graph.setTileMapping(f, tr.tile);
      auto v = graph.addVertex(cs, poputil::templateVertex("popops::HasNaNOrInf1D", type, nanOrInf),
                               {{"in", flat.slice(tr.regions[0])}, {"out", f}});
      graph.setTileMapping(v, tr.tile);
      flags.push_back(f);
      continue;
    }
    unsigned grain = target.getVectorWidth(type);
    auto partitions = poputil::splitRegionsBetweenWorkers(target, tr.regions, grain, 2 * grain);
    Tensor f = graph.addVariable(FLOAT, {partitions.size()}, {dc, "flags"});
    graph.setTileMapping(f, tr.tile);
    for (std::size_t i = 0; i < partitions.size(); ++i) {
      std::vector<Tensor> in;
      for (const auto &r : partitions[i])
        in.push_back(flat.slice(r));
      auto v =
          graph.addVertex(cs, poputil::templateVertex("popops::HasNaNOrInf2D", type, nanOrInf));
      graph.connect(v["in"], in);
      graph.connect(v["out"], f[i]);
      graph.setTileMapping(v, tr.tile);
    }
    flags.push_back(f);
  }
  prog.add(Execute(cs, {dc}));
  Tensor any = reduce(graph, concat(flags), FLOAT, {0}, {Operation::MAX}, prog, {dc, "anyTile"});
  return cast(graph, any, BOOL, prog, {dc, "result"});
}

} // namespace

Tensor hasNaN(Graph &graph, const Tensor &src, Sequence &prog, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(src));
  Tensor out = check(graph, src, prog, false, "popops::hasNaN", {di});
  di.addOutput(out);
  return out;
}

Tensor hasNaNOrInf(Graph &graph, const Tensor &src, Sequence &prog,
                   const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(src));
  Tensor out = check(graph, src, prog, true, "popops::hasNaNOrInf", {di});
  di.addOutput(out);
  return out;
}

} // namespace popops
