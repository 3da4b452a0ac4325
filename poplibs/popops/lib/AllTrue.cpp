// allTrue: each tile ANDs the elements it holds (AllTrue vertices), then one vertex ANDs the
// tiles' results.
#include <popops/AllTrue.hpp>

#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;
using namespace poplar::program;

namespace {

void addAllTrueVertex(Graph &graph, ComputeSet cs, const std::vector<Tensor> &in, const Tensor &out,
                      unsigned tile) {
  auto v = graph.addVertex(cs, poputil::templateVertex("popops::AllTrue", BOOL));
  graph.connect(v["in"], in);
  graph.connect(v["out"], out.flatten());
  graph.setTileMapping(v, tile);
}

} // namespace

Tensor allTrue(Graph &graph, Tensor A, Sequence &prog, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(A));
  if (A.elementType() != BOOL)
    popsdk::support::raise<poputil::poplibs_error>("popops::allTrue: A has type ", A.elementType(),
                                                   " but must be bool");
  Tensor result = graph.addVariable(BOOL, {}, {di, "result"});
  graph.setTileMapping(result, 0);
  Tensor flat = A.flatten();
  auto mapping = graph.getTileMapping(flat);
  std::vector<unsigned> tiles;
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    if (!mapping[tile].empty())
      tiles.push_back(tile);
  auto tileCs = graph.addComputeSet({di, "allTrue/tiles"});
  if (tiles.size() <= 1) {
    // One tile (or none: the AND of nothing is true) writes the result itself.
    std::vector<Tensor> in;
    if (!tiles.empty())
      for (const auto &r : mapping[tiles[0]])
        in.push_back(flat.slice(r.begin(), r.end()));
    addAllTrueVertex(graph, tileCs, in, result, tiles.empty() ? 0 : tiles[0]);
    prog.add(Execute(tileCs));
    di.addOutput(result);
    return result;
  }
  Tensor partials = graph.addVariable(BOOL, {tiles.size()}, {di, "partials"});
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    graph.setTileMapping(partials[i], tiles[i]);
    std::vector<Tensor> in;
    for (const auto &r : mapping[tiles[i]])
      in.push_back(flat.slice(r.begin(), r.end()));
    addAllTrueVertex(graph, tileCs, in, partials[i], tiles[i]);
  }
  auto finalCs = graph.addComputeSet({di, "allTrue/result"});
  addAllTrueVertex(graph, finalCs, {partials}, result, 0);
  prog.add(Execute(tileCs));
  prog.add(Execute(finalCs));
  di.addOutput(result);
  return result;
}

} // namespace popops
