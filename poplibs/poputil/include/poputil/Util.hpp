// Splitting lists of element intervals into balanced partitions (per tile or per worker).
#ifndef poputil_Util_hpp
#define poputil_Util_hpp

#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>

#include <vector>

namespace poputil {

/// Splits the elements of `regions` (taken in order) into at most `maxPartitions` partitions of
/// whole grains of `grainSize` elements (the last grain may be short). When
/// `minElementsPerPartition` is non-zero, fewer partitions are made so that each has at least that
/// many elements, as long as the largest partition does not grow. Partition p holds grains
/// [p * numGrains / parts, (p + 1) * numGrains / parts). Returns one interval list per partition;
/// an empty input gives no partitions.
std::vector<std::vector<poplar::Interval>>
splitRegions(const std::vector<poplar::Interval> &regions, unsigned grainSize,
             unsigned maxPartitions, unsigned minElementsPerPartition = 0);

/// splitRegions over the target's worker contexts (at most getNumWorkerContexts() partitions).
std::vector<std::vector<poplar::Interval>>
splitRegionsBetweenWorkers(const poplar::Target &target,
                           const std::vector<poplar::Interval> &regions, unsigned grainSize,
                           unsigned minElementsPerPartition = 0);

/// A new tensor laid out like `in` (Graph::clone) holding a copy of it, made by `prog`.
poplar::Tensor duplicate(
    poplar::Graph &graph, const poplar::Tensor &in, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    poplar::TensorCloneMethod method = poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

/// `N` clones of `t` stacked in a new outermost dimension ([N, t.shape()...]), each laid out like
/// `t`.
poplar::Tensor
cloneN(poplar::Graph &graph, const poplar::Tensor &t, unsigned N,
       const poplar::DebugContext &debugContext = {},
       poplar::TensorCloneMethod method = poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

} // namespace poputil

#endif
