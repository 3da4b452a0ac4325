// Cycle estimators of the transpose vertices (codelets/popops/Transpose.cpp): PopLibs' published
// formulas for its hand-written transposes, which addTransposeVertices sets as each vertex's
// estimate. VertexCost::regions holds {numSrcRows, numSrcColumns} and VertexCost::slices the
// number of matrices the vertex transposes (all six workers' for Transpose1D).
#pragma once

#include "CycleEstimators.hpp"

namespace popops::internal {

std::uint64_t transpose2DCycles(const VertexCost &c);
std::uint64_t transpose1DSingleWorkerCycles(const VertexCost &c);
std::uint64_t transpose1DCycles(const VertexCost &c);

/// How Transpose1D shares `matrices` between `workers`: the first `workerCount` take
/// `perWorker` each and the rest one fewer (PopLibs' split, not splitRegionsBetweenWorkers').
struct TransposeWorkerSplit {
  unsigned perWorker, workerCount;
};
TransposeWorkerSplit transposeWorkerSplit(unsigned matrices, unsigned workers);

} // namespace popops::internal
