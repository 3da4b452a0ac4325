// Linear tile mappings: spread a tensor's elements evenly over the tiles, in grains.
#ifndef poputil_TileMapping_hpp
#define poputil_TileMapping_hpp

// Graph.hpp comes with this header: programs that include only Engine.hpp, IPUModel.hpp and
// poputil/TileMapping.hpp (tut5) use Graph, Tensor and the program classes through it.
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <vector>

namespace poputil {

/// The linear mapping of a tensor of `shape` over the graph's tiles: its elements, in row-major
/// order, are cut into grains of `grainSize` and the grains into at most getNumTiles() equal
/// runs, tile p taking run p, with no tile given fewer than `minElementsPerTile` elements if
/// that can be avoided without making the largest run longer (splitRegions). The result has one
/// entry per used tile, starting at tile 0.
std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph &graph,
                                                                 std::vector<std::size_t> shape,
                                                                 unsigned minElementsPerTile,
                                                                 unsigned grainSize);

/// calcLinearTileMapping for the tensor's shape with the defaults: grainSize is
/// target.getVectorWidth(type) and minElementsPerTile is 128 bytes' worth of elements.
std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph &graph,
                                                                 const poplar::Tensor &t);

/// Maps `t` with calcLinearTileMapping(graph, t.shape(), minElementsPerTile, grainSize).
void mapTensorLinearly(poplar::Graph &graph, const poplar::Tensor &t, unsigned minElementsPerTile,
                       unsigned grainSize);

/// Maps `t` with the default linear mapping (see calcLinearTileMapping(graph, t)).
void mapTensorLinearly(poplar::Graph &graph, const poplar::Tensor &t);

/// How many elements the fullest tile of `mapping` holds beyond a balanced share, where the
/// balanced share is max(ceil(total / tiles), minElementsPerTile, grainSize); 0 if none.
unsigned getTileImbalance(const std::vector<std::vector<poplar::Interval>> &mapping,
                          unsigned minElementsPerTile = 0, unsigned grainSize = 1);

} // namespace poputil

#endif
