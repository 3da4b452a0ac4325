// splitRegions: the one partitioning rule behind linear tile mappings and per-worker splits.
#include "poputil/Util.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

namespace poputil {
namespace {

std::size_t ceilDiv(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

} // namespace

std::vector<std::vector<poplar::Interval>>
splitRegions(const std::vector<poplar::Interval> &regions, unsigned grainSize,
             unsigned maxPartitions, unsigned minElementsPerPartition) {
  if (grainSize == 0 || maxPartitions == 0)
    throw std::invalid_argument("poputil::splitRegions: grainSize and maxPartitions must be "
                                "non-zero");
  std::size_t total = 0;
  for (const auto &r : regions)
    total += r.size();
  if (total == 0)
    return {};

  // Fewest grains per partition that fit in maxPartitions; then, if partitions have a minimum
  // size, the count that respects it (never below one partition).
  const std::size_t numGrains = ceilDiv(total, grainSize);
  std::size_t grainsPerPartition = ceilDiv(numGrains, maxPartitions);
  if (minElementsPerPartition != 0) {
    const std::size_t minGrains = ceilDiv(minElementsPerPartition, grainSize);
    const std::size_t maxParts = std::max<std::size_t>(1, numGrains / minGrains);
    grainsPerPartition = std::max(grainsPerPartition, ceilDiv(numGrains, maxParts));
  }
  // Spread the grains evenly over as few partitions as that size needs, so partition sizes
  // differ by at most one grain.
  const std::size_t numParts = ceilDiv(numGrains, grainsPerPartition);

  std::vector<std::vector<poplar::Interval>> parts(numParts);
  auto region = regions.begin();
  std::size_t offset = 0; // elements of *region already handed out
  for (std::size_t p = 0; p != numParts; ++p) {
    const std::size_t beginElem = p * numGrains / numParts * grainSize;
    const std::size_t endElem = std::min(total, (p + 1) * numGrains / numParts * grainSize);
    std::size_t remaining = endElem - beginElem;
    while (remaining != 0) {
      if (offset == region->size()) {
        ++region;
        offset = 0;
        continue;
      }
      const std::size_t n = std::min(remaining, region->size() - offset);
      parts[p].emplace_back(region->begin() + offset, region->begin() + offset + n);
      offset += n;
      remaining -= n;
    }
  }
  return parts;
}

std::vector<std::vector<poplar::Interval>>
splitRegionsBetweenWorkers(const poplar::Target &target,
                           const std::vector<poplar::Interval> &regions, unsigned grainSize,
                           unsigned minElementsPerPartition) {
  return splitRegions(regions, grainSize, target.getNumWorkerContexts(), minElementsPerPartition);
}

poplar::Tensor duplicate(poplar::Graph &graph, const poplar::Tensor &in,
                         poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                         poplar::TensorCloneMethod method) {
  poplar::Tensor out = graph.clone(in, {debugContext, "duplicate"}, method);
  prog.add(poplar::program::Copy(in, out, false, {debugContext, "duplicate"}));
  return out;
}

poplar::Tensor cloneN(poplar::Graph &graph, const poplar::Tensor &t, unsigned N,
                      const poplar::DebugContext &debugContext, poplar::TensorCloneMethod method) {
  std::vector<poplar::Tensor> clones;
  for (unsigned i = 0; i < N; ++i)
    clones.push_back(
        graph.clone(t, {debugContext, "clone" + std::to_string(i)}, method).expand({0}));
  if (clones.empty()) {
    std::vector<std::size_t> shape = t.shape();
    shape.insert(shape.begin(), 0);
    return graph.addVariable(t.elementType(), shape, debugContext);
  }
  return poplar::concat(clones, 0);
}

} // namespace poputil
