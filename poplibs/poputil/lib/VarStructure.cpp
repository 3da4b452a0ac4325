// Groupings found from a tensor's memory layout and tile mapping, and partitionable variables.
#include <poputil/VarStructure.hpp>
#include <poputil/exceptions.hpp>

#include "support/Raise.hpp"

#include <algorithm>
#include <numeric>

namespace poputil {

using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

std::size_t ceilDiv(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

void checkPartitions(const char *fn, std::size_t rank, const std::vector<std::size_t> &shape,
                     const std::vector<std::size_t> &nPartitions) {
  if (rank != nPartitions.size())
    raise<poplibs_error>("poputil::", fn, ": shape ", shapeText(shape), " has rank ", rank,
                         " but nPartitions ", shapeText(nPartitions), " has ", nPartitions.size(),
                         " entries");
  for (std::size_t d = 0; d < rank; ++d)
    if (nPartitions[d] == 0)
      raise<poplibs_error>("poputil::", fn, ": nPartitions ", shapeText(nPartitions),
                           " has 0 partitions in dimension ", d);
}

/// Dimension d of a partitionable tensor: `full` partitions of `size` elements, then one of
/// `rest` (0 when the partitions divide the dimension).
struct DimSplit {
  std::size_t full, size, rest;
};

/// The part of the partitionable tensor that `chosen` selects for dimensions [0, d) (for each,
/// (partitions, elements per partition): its full partitions or its remainder), over every
/// dimension from d on. The full partitions and the remainder of each dimension are separate
/// variables, each holding its partitions outermost so that every partition is contiguous,
/// concatenated back in order.
poplar::Tensor build(poplar::Graph &graph, const poplar::Type &type,
                     const std::vector<DimSplit> &splits,
                     std::vector<std::pair<std::size_t, std::size_t>> &chosen,
                     const poplar::DebugContext &dc) {
  const std::size_t d = chosen.size(), rank = splits.size();
  if (d == rank) {
    // chosen[k] = (partitions, elements per partition) of dimension k: a variable
    // [partitions..., elements...], each partition's elements innermost, viewed as the shape.
    std::vector<std::size_t> varShape, shape;
    std::vector<unsigned> interleave;
    for (const auto &c : chosen)
      varShape.push_back(c.first);
    for (const auto &c : chosen)
      varShape.push_back(c.second);
    for (std::size_t k = 0; k < rank; ++k) {
      interleave.push_back(unsigned(k));
      interleave.push_back(unsigned(rank + k));
      shape.push_back(chosen[k].first * chosen[k].second);
    }
    return graph.addVariable(type, varShape, dc).dimShuffle(interleave).reshape(shape);
  }
  std::vector<poplar::Tensor> parts;
  const DimSplit &s = splits[d];
  for (auto piece : {std::make_pair(s.full, s.size), std::make_pair(std::size_t(1), s.rest)}) {
    if (piece.first == 0 || piece.second == 0)
      continue;
    chosen.push_back(piece);
    parts.push_back(build(graph, type, splits, chosen, dc));
    chosen.pop_back();
  }
  return poplar::concat(parts, unsigned(d));
}

} // namespace

unsigned detectInnermostGrouping(const poplar::Graph &graph, const poplar::Tensor &t) {
  if (t.rank() == 0)
    raise<poplibs_error>("poputil::detectInnermostGrouping: the tensor is a scalar (shape {}); "
                         "a grouping needs at least one dimension");
  if (t.numElements() == 0)
    return 1;
  // The first innermost row stands for the tensor.
  poplar::Tensor row = t;
  while (row.rank() > 1)
    row = row[0];
  // How many of its first elements follow each other in memory...
  const auto regions = row.getContiguousRegions();
  const std::size_t contiguous = regions.empty() ? 1 : regions.front().size();
  // ...and the longest run on one tile: a group is what is both.
  std::size_t longestOnTile = 0;
  for (const auto &tileRegions : graph.getTileMapping(row, false))
    for (const auto &r : tileRegions)
      longestOnTile = std::max(longestOnTile, r.size());
  std::size_t grouping = std::gcd(contiguous, longestOnTile);
  if (grouping == 0 || row.numElements() % grouping != 0)
    return 1;
  return unsigned(grouping);
}

std::vector<GroupingInfo> detectDimGroupings(const poplar::Graph &graph, const poplar::Tensor &t) {
  if (t.rank() == 0)
    raise<poplibs_error>("poputil::detectDimGroupings: the tensor is a scalar (shape {}); "
                         "a grouping needs at least one dimension");
  std::vector<GroupingInfo> found;
  const unsigned rank = t.rank();
  // `grouped` has the groups found so far split off their dimensions and moved innermost, so a
  // dimension's grouping is looked for together with (inside) them.
  poplar::Tensor grouped = t;
  unsigned total = 1;
  for (;;) {
    unsigned best = 1, bestDim = 0;
    for (unsigned d = 0; d < rank; ++d) {
      if (grouped.dim(d) == 1)
        continue;
      auto candidate = grouped.dimRoll(d, rank - 1).flatten(rank - 1, grouped.rank());
      unsigned g = detectInnermostGrouping(graph, candidate);
      // A grouping that is not a whole number of the groups inside it is no grouping of d.
      unsigned mine = g % total ? 1u : g / total;
      mine = std::gcd(mine, unsigned(grouped.dim(d)));
      if (mine > best) {
        best = mine;
        bestDim = d;
      }
    }
    if (best == 1)
      break;
    found.emplace_back(bestDim, best);
    total *= best;
    grouped = grouped.reshapePartial(bestDim, bestDim + 1, {grouped.dim(bestDim) / best, best})
                  .dimRoll(bestDim + 1, grouped.rank());
  }
  return found;
}

poplar::Tensor createPartitionableTensor(poplar::Graph &graph, const poplar::Type &type,
                                         const std::vector<std::size_t> &shape,
                                         const std::vector<std::size_t> &nPartitions,
                                         const poplar::DebugContext &debugContext) {
  checkPartitions("createPartitionableTensor", shape.size(), shape, nPartitions);
  if (shape.empty() || std::find(shape.begin(), shape.end(), 0) != shape.end())
    return graph.addVariable(type, shape, debugContext);
  std::vector<DimSplit> splits;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    std::size_t size = ceilDiv(shape[d], nPartitions[d]);
    splits.push_back({shape[d] / size, size, shape[d] % size});
  }
  std::vector<std::pair<std::size_t, std::size_t>> chosen;
  return build(graph, type, splits, chosen, debugContext);
}

void iterateTensorPartitions(
    const poplar::Tensor &t, const std::vector<std::size_t> &nPartitions,
    const std::function<void(const std::vector<std::size_t> &i, const poplar::Tensor &s)> &f) {
  const auto shape = t.shape();
  checkPartitions("iterateTensorPartitions", shape.size(), shape, nPartitions);
  std::vector<std::size_t> i(shape.size(), 0);
  for (;;) {
    poplar::Tensor s = t;
    for (std::size_t d = 0; d < shape.size(); ++d) {
      std::size_t size = ceilDiv(shape[d], nPartitions[d]);
      std::size_t begin = std::min(i[d] * size, shape[d]), end = std::min(begin + size, shape[d]);
      s = s.slice(begin, end, unsigned(d));
    }
    f(i, s);
    // Count up, the first dimension fastest.
    std::size_t d = 0;
    while (d < i.size() && ++i[d] == nPartitions[d])
      i[d++] = 0;
    if (d == i.size())
      return;
  }
}

} // namespace poputil
