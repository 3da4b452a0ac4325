// The poplin vertex cycle estimators named in codelets/poplin/Vertices.def: what each vertex
// costs in tile cycles, from the AMP's pass costs (docs/isa.md, group AmpPass) and the vertex's
// loop structure. The planner ranks plans with them; the vertex tests hold the interpreter to them.
#pragma once

#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

#include <cstdint>
#include <string>

namespace poplin::internal {

/// One vertex instance: its types, and its shape (a ConvPartial1x1Out's conv groups, positions
/// and channels; a ReduceAdd's partial count and elements; a ConvPartialnx1's kernel positions
/// and its busiest worker's worklist: the output positions it zeros, its entries over all kernel
/// positions and the positions those entries cover).
struct VertexCost {
  const poplar::Target &target;
  poplar::Type dataType;
  poplar::Type partialsType;
  unsigned groups = 1, positions = 0, inChans = 0, outChans = 0;
  unsigned numPartials = 0, numElems = 0;
  unsigned kernelPositions = 1, workerZeros = 0, workerEntries = 0, workerEntryPositions = 0;
};

using CycleEstimator = std::uint64_t (*)(const VertexCost &);

#define POPLIN_VERTEX2(name, pairs, estimator) std::uint64_t estimator(const VertexCost &cost);
#define POPLIN_ALL_FAMILIES
#include "poplin/Vertices.def"
#undef POPLIN_ALL_FAMILIES

/// The estimator of vertex template `name` ("ConvPartial1x1Out"), from Vertices.def.
CycleEstimator estimatorOf(const std::string &name);

/// MACs per tile cycle of the AMP for `dataType` (16 f32, 64 f16).
unsigned ampMacsPerCycle(const poplar::Type &dataType);

} // namespace poplin::internal
