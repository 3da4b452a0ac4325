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
/// SplitTranspose1D: no PopLibs formula here; each worker is costed as the single-worker kernel
/// over its block (which is what it runs), the busiest setting the time.
std::uint64_t splitTranspose1DCycles(const VertexCost &c);

/// How Transpose1D shares `matrices` between `workers`: the first `workerCount` take
/// `perWorker` each and the rest one fewer (PopLibs' split, not splitRegionsBetweenWorkers').
struct TransposeWorkerSplit {
  unsigned perWorker, workerCount;
};
TransposeWorkerSplit transposeWorkerSplit(unsigned matrices, unsigned workers);

/// Whether SplitTranspose1D can share `matrices` between `workers`: fewer matrices than
/// workers, dividing them.
bool canSplitTranspose(unsigned matrices, unsigned workers);

/// SplitTranspose1D's work list for `matrices` rows x cols matrices (sides multiples of 4) over
/// `workers` (canSplitTranspose must hold): per block, its source and destination offsets and its
/// rows and columns, all in units of 4. Rows are split first (PopLibs' order), then columns.
std::vector<unsigned> splitTranspose1DWorkList(unsigned rows, unsigned cols, unsigned matrices,
                                               unsigned workers);

} // namespace popops::internal
