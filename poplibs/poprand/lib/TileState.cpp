// The per-graph generator state tensor (found again through a registry keyed by the graph's
// shared state) and the SetSeed compute set.
#include "TileState.hpp"

#include "CycleEstimators.hpp"

#include <poputil/exceptions.hpp>

#include "support/Raise.hpp"

#include <map>
#include <mutex>

namespace poprand::internal {

using namespace poplar;
using popsdk::support::raise;

namespace {

unsigned numWorkers(const Graph &graph) { return graph.getTarget().getNumWorkerContexts(); }

/// Maps row t of a {tiles, workers, 4} state to tiles[t].
void mapRows(Graph &graph, const Tensor &state, const std::vector<unsigned> &tiles) {
  for (unsigned i = 0; i < tiles.size(); ++i)
    graph.setTileMapping(state[i], tiles[i]);
}

/// True if `state` is still the state tensor this registry made for `top`: a graph destroyed
/// and a new one made at the same address must not inherit it, and its variables differ.
bool isStateOf(Graph &top, const Tensor &state) {
  std::size_t rowElems = numWorkers(top) * kStateWords;
  try {
    bool complete = false;
    auto mapping = top.getTileMapping(state, &complete);
    if (!complete || state.dim(0) != mapping.size())
      return false;
    for (std::size_t t = 0; t < mapping.size(); ++t)
      if (mapping[t].size() != 1 || mapping[t][0] != Interval(t * rowElems, (t + 1) * rowElems))
        return false;
    return true;
  } catch (const std::exception &) {
    return false;
  }
}

} // namespace

Tensor tileState(Graph &graph) {
  static std::mutex mutex;
  static std::map<const void *, Tensor> states;
  Graph &top = graph.getTopLevelGraph();
  Tensor state;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto &entry = states[&top.getState()];
    if (!entry.valid() || !isStateOf(top, entry)) {
      unsigned tiles = top.getTarget().getNumTiles();
      entry = top.addVariable(UNSIGNED_INT, {tiles, numWorkers(top), kStateWords},
                              {"poprand/tileState"});
      std::vector<unsigned> all(tiles);
      for (unsigned t = 0; t < tiles; ++t)
        all[t] = t;
      mapRows(top, entry, all);
      top.setInitialValue(entry, 0u);
    }
    state = entry;
  }
  // A virtual graph's tiles are rows [offset, offset + tiles) of the top-level graph's.
  unsigned first = graph.getTileOffset();
  return state.slice(first, first + graph.getTarget().getNumTiles());
}

Tensor scratchState(Graph &graph, const std::vector<unsigned> &tiles, const DebugContext &dc) {
  Tensor state = graph.addVariable(UNSIGNED_INT, {tiles.size(), numWorkers(graph), kStateWords},
                                   {dc, "state"});
  mapRows(graph, state, tiles);
  return state;
}

void checkSeed(const Tensor &seed, const char *api) {
  if (!seed.valid())
    raise<poputil::poplibs_error>(api, ": the seed tensor is not valid");
  if (seed.elementType() != UNSIGNED_INT || seed.numElements() != 2)
    raise<poputil::poplibs_error>(api, ": the seed must be 2 elements of type unsigned int, not ",
                                  seed.elementType().toString(), " ", seed.shapeToString());
}

void addSetSeed(Graph &graph, const Tensor &state, const std::vector<unsigned> &tiles,
                const Tensor &seed, std::uint32_t modifier, program::Sequence &prog,
                const DebugContext &dc) {
  ComputeSet cs = graph.addComputeSet({dc, "setSeed"});
  Tensor seedFlat = seed.flatten();
  for (unsigned i = 0; i < tiles.size(); ++i) {
    VertexRef v = graph.addVertex(cs, "poprand::SetSeed",
                                  {{"seed", seedFlat}, {"state", state[i].flatten()}});
    graph.setInitialValue(v["seedModifier"], modifier);
    graph.setInitialValue(v["tile"], streamTile(graph, tiles[i]));
    graph.setTileMapping(v, tiles[i]);
    graph.setPerfEstimate(v, setSeedCycles({graph.getTarget(),
                                            -1,
                                            UNSIGNED_INT,
                                            UNSIGNED_INT,
                                            {numWorkers(graph) * kStateWords}}));
  }
  prog.add(program::Execute(cs));
}

unsigned streamTile(const Graph &graph, unsigned tile) {
  // getTileOffset is relative to the top-level graph: the stream is the physical tile's.
  return graph.getTileOffset() + tile;
}

} // namespace poprand::internal
