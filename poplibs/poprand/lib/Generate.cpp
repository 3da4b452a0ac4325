// generate: the per-tile generating vertices of every poprand function.
#include "Generate.hpp"

#include "CycleEstimators.hpp"
#include "TileState.hpp"

#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include "support/Raise.hpp"
#include "support/WorkerSplit.hpp"

#include <algorithm>
#include <vector>

namespace poprand::internal {

using namespace poplar;
using popsdk::support::raise;

TileToTensorMapping completeMapping(const Graph &graph, const Tensor &t, const char *api,
                                    const char *what) {
  bool complete = false;
  auto mapping = graph.getTileMapping(t, &complete);
  if (!complete)
    raise<poputil::poplibs_error>(api, ": the ", what, " ", t.shapeToString(),
                                  " is not completely mapped to tiles of the graph");
  return mapping;
}

void generate(Graph &graph, const Generation &g, program::Sequence &prog, const DebugContext &dc) {
  if (g.seed)
    checkSeed(*g.seed, g.api);
  auto mapping = completeMapping(graph, g.reference, g.api, "reference");
  std::vector<unsigned> tiles;
  for (unsigned t = 0; t < mapping.size(); ++t)
    if (!mapping[t].empty())
      tiles.push_back(t);

  // The state each tile draws from: the graph's own (row = tile), or a scratch one seeded for
  // this call (row i = tiles[i]), so that a seeded call gives the same values wherever it runs
  // and leaves the graph's state alone.
  Tensor state;
  if (g.seed) {
    state = scratchState(graph, tiles, dc);
    addSetSeed(graph, state, tiles, *g.seed, g.seedModifier, prog, dc);
  } else {
    state = tileState(graph);
  }

  // A tile's part longer than its workers split exactly is drawn by several vertices, one after
  // another (piece k in compute set k), as each continues the tile's state where the last left
  // it. On an IPU tile one compute set always suffices.
  std::vector<ComputeSet> sets{graph.addComputeSet({dc, g.vertex})};
  std::string vertexName = poputil::templateVertex("poprand::" + g.vertex, g.type);
  CycleEstimator estimator = estimatorOf(g.vertex);
  std::size_t widestBytes = graph.getTarget().getTypeSize(g.type);
  if (g.in)
    widestBytes =
        std::max<std::size_t>(widestBytes, graph.getTarget().getTypeSize(g.in->elementType()));
  const std::size_t maxPerVertex = popsdk::support::maxWorkerSplitElements(widestBytes);
  Tensor outFlat = g.out.flatten();
  for (unsigned i = 0; i < tiles.size(); ++i) {
    unsigned tile = tiles[i];
    Tensor out = concat(outFlat.slices(mapping[tile]));
    Tensor in = g.in ? concat(g.in->flatten().slices(mapping[tile])) : Tensor();
    std::size_t piece = 0;
    popsdk::support::forEachPiece(
        0, out.numElements(), maxPerVertex, [&](std::size_t b, std::size_t e) {
          if (piece == sets.size())
            sets.push_back(graph.addComputeSet({dc, g.vertex}));
          VertexRef v = graph.addVertex(
              sets[piece++], vertexName,
              {{"out", out.slice(b, e)}, {"state", state[g.seed ? i : tile].flatten()}});
          if (g.in)
            graph.connect(v["in"], in.slice(b, e));
          graph.setInitialValue(v["tile"], streamTile(graph, tile));
          g.setParams(graph, v);
          graph.setTileMapping(v, tile);
          graph.setPerfEstimate(
              v, estimator({graph.getTarget(), -1, g.type, g.type, {unsigned(e - b)}}));
        });
  }
  for (const ComputeSet &cs : sets)
    prog.add(program::Execute(cs));
}

} // namespace poprand::internal
