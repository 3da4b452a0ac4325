// Cycle estimators of the reduction vertices (codelets/popops/Reduce.cpp): PopLibs' formulas for
// Reduce / ScaledReduce (lists of partial regions per output region) and ContinuousReduce /
// ScaledContinuousReduce (contiguous partials per output), in worker cycles: each is a
// single-worker vertex. The reduction planner balances a tile's workers with them.
#pragma once

#include <popops/OperationDef.hpp>

#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace popops::internal {

/// One output region of a Reduce vertex: its size and the size of each partial region folded
/// into it (each a whole number of rows of outSize elements).
struct ReduceRegionCost {
  std::size_t outSize;
  std::vector<std::size_t> partialSizes;
};

/// What a reduction vertex instance is: its template arguments (scaled: the Scaled* vertex).
struct ReduceVertexCost {
  const poplar::Target &target;
  Operation op;
  poplar::Type partialsType;
  poplar::Type outType;
  bool isUpdate;
  bool scaled;
};

/// Reduce and ScaledReduce over `regions`.
std::uint64_t reduceCycles(const ReduceVertexCost &v, const std::vector<ReduceRegionCost> &regions);
/// The part of reduceCycles one output region adds.
std::uint64_t reduceRegionCycles(const ReduceVertexCost &v, const ReduceRegionCost &region);

/// The thread cycles one output region adds to a Reduce vertex: for regions of 8 or more outputs
/// of the ops and types that fold in float lanes (the block loop, codelets/popops/ReduceLanes.hpp),
/// a fit of the loop measured on the ipu2 model (float ADD), in which one-row partial regions cost
/// only their rows; PopLibs' estimate (reduceRegionCycles) otherwise. PopLibs' formula costs the
/// block loop's rows several times what they take, and a one-row partial region as much as any:
/// a tile's workers balanced with it got twice the work of others, and the intermediate stage
/// (ReduceFanIn.cpp) spread fan-ins whose extra stage cost more than it saved.
std::uint64_t regionCycles(const ReduceVertexCost &v, const ReduceRegionCost &region);

/// A Reduce vertex folding one output region of `width` outputs from `rows` rows in one partial
/// region: regionCycles and the vertex's own cycles (ReduceCyclesTest checks it against the
/// vertex).
std::uint64_t regionFoldCycles(const ReduceVertexCost &v, std::size_t width, std::size_t rows);

/// ContinuousReduce and ScaledContinuousReduce: numOutputs outputs of numPartials partials each.
std::uint64_t continuousReduceCycles(const ReduceVertexCost &v, std::size_t numOutputs,
                                     std::size_t numPartials);

} // namespace popops::internal
