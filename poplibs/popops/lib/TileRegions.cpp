// Tile regions of element-wise work and the vertices that cover them.
#include "TileRegions.hpp"

#include <poputil/Util.hpp>
#include <poputil/exceptions.hpp>

#include "support/Raise.hpp"
#include "support/WorkerSplit.hpp"

#include <algorithm>

namespace popops::internal {

using namespace poplar;
using popsdk::support::raise;

std::vector<TileRegions> contiguousTileRegions(const Graph &graph, const Tensor &t,
                                               const std::string &api) {
  bool complete = true;
  Tensor flat = t.flatten();
  auto mapping = graph.getTileMapping(flat, &complete);
  if (!complete)
    raise<poputil::poplibs_error>(api, ": tensor ", t.shapeToString(),
                                  " is not completely mapped to tiles");
  // Boundaries where the flattened tensor jumps to another place in memory.
  std::vector<std::size_t> cuts;
  for (const auto &r : flat.getContiguousRegions())
    cuts.push_back(r.begin());
  std::vector<TileRegions> result;
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    if (mapping[tile].empty())
      continue;
    TileRegions tr{tile, {}};
    for (const auto &iv : mapping[tile]) {
      std::size_t begin = iv.begin();
      auto cut = std::upper_bound(cuts.begin(), cuts.end(), begin);
      for (; cut != cuts.end() && *cut < iv.end(); ++cut) {
        tr.regions.emplace_back(begin, *cut);
        begin = *cut;
      }
      tr.regions.emplace_back(begin, iv.end());
    }
    result.push_back(std::move(tr));
  }
  return result;
}

void addElementwiseVertices(Graph &graph, const ComputeSet &cs, const Tensor &work,
                            const std::string &api, const std::string &vertex1D,
                            const std::string &vertex2D, const std::vector<FieldTensor> &fields,
                            const std::function<void(VertexRef)> &setup) {
  const Target &target = graph.getTarget();
  std::size_t widestBytes = 1;
  for (const auto &field : fields)
    widestBytes =
        std::max<std::size_t>(widestBytes, target.getTypeSize(field.second.elementType()));
  // A region longer than its workers can split exactly is shared by several vertices.
  const std::size_t maxPerVertex = popsdk::support::maxWorkerSplitElements(widestBytes);
  auto add1D = [&](unsigned tile, const Interval &region) {
    popsdk::support::forEachPiece(region.begin(), region.end(), maxPerVertex,
                                  [&](std::size_t begin, std::size_t end) {
                                    VertexRef v = graph.addVertex(cs, vertex1D);
                                    for (const auto &[field, t] : fields)
                                      graph.connect(v[field], t.slice(begin, end));
                                    graph.setTileMapping(v, tile);
                                    if (setup)
                                      setup(v);
                                  });
  };
  for (const auto &tr : contiguousTileRegions(graph, work, api)) {
    if (tr.regions.size() == 1 || vertex2D.empty()) {
      for (const auto &region : tr.regions)
        add1D(tr.tile, region);
      continue;
    }
    // Whole regions per worker: a 2-D vertex walks a list of contiguous regions.
    unsigned grain = std::max(1u, target.getVectorWidth(work.elementType()));
    for (const auto &partition :
         poputil::splitRegionsBetweenWorkers(target, tr.regions, grain, 2 * grain)) {
      VertexRef v = graph.addVertex(cs, vertex2D);
      for (const auto &[field, t] : fields) {
        std::vector<Tensor> slices;
        for (const auto &region : partition)
          slices.push_back(t.slice(region));
        graph.connect(v[field], slices);
      }
      graph.setTileMapping(v, tr.tile);
      if (setup)
        setup(v);
    }
  }
}

} // namespace popops::internal
