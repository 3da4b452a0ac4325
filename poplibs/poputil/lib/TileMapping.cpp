// Linear tile mappings (PopLibs' mapTensorLinearly), built on splitRegions.
#include "poputil/TileMapping.hpp"

#include "poputil/Util.hpp"
#include "support/CheckedMath.hpp"

#include <poplar/exceptions.hpp>

#include <algorithm>

namespace poputil {

std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph &graph,
                                                                 std::vector<std::size_t> shape,
                                                                 unsigned minElementsPerTile,
                                                                 unsigned grainSize) {
  const std::size_t numElements = popsdk::support::shapeElements<poplar::overflow_error>(
      shape, "poputil::calcLinearTileMapping");
  return splitRegions({poplar::Interval(0, numElements)}, grainSize,
                      graph.getTarget().getNumTiles(), minElementsPerTile);
}

std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph &graph,
                                                                 const poplar::Tensor &t) {
  const auto &target = graph.getTarget();
  const unsigned typeSize = target.getTypeSize(t.elementType());
  // A tile gets at least 128 bytes of the tensor: smaller pieces cost more in exchange and
  // vertex overhead than they save in balance.
  const unsigned minBytesPerTile = 128;
  const unsigned minElementsPerTile = (minBytesPerTile + typeSize - 1) / typeSize;
  return calcLinearTileMapping(graph, t.shape(), minElementsPerTile,
                               target.getVectorWidth(t.elementType()));
}

void mapTensorLinearly(poplar::Graph &graph, const poplar::Tensor &t, unsigned minElementsPerTile,
                       unsigned grainSize) {
  graph.setTileMapping(t, calcLinearTileMapping(graph, t.shape(), minElementsPerTile, grainSize));
}

void mapTensorLinearly(poplar::Graph &graph, const poplar::Tensor &t) {
  graph.setTileMapping(t, calcLinearTileMapping(graph, t));
}

unsigned getTileImbalance(const std::vector<std::vector<poplar::Interval>> &mapping,
                          unsigned minElementsPerTile, unsigned grainSize) {
  if (mapping.empty())
    return 0;
  std::size_t maxPerTile = 0, total = 0;
  for (const auto &tile : mapping) {
    std::size_t n = 0;
    for (const auto &i : tile)
      n += i.size();
    maxPerTile = std::max(maxPerTile, n);
    total += n;
  }
  std::size_t balanced = (total + mapping.size() - 1) / mapping.size();
  balanced = std::max<std::size_t>({balanced, minElementsPerTile, grainSize});
  return maxPerTile > balanced ? unsigned(maxPerTile - balanced) : 0;
}

} // namespace poputil
