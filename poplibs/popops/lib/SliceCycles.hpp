// Cycle estimators of the slicing, encoding and sorting vertices (codelets/popops/DynamicSlice.cpp,
// Encoding.cpp, Sort.cpp). The slice ones are PopLibs' formulas for DynamicSlice*,
// DynamicUpdateSlice*, MultiSlice and MultiUpdate*: VertexCost::regions holds the element count of
// each region (one for the 1-D and multi vertices), VertexCost::slices the rows copied per region
// (numSubElements, or the number of indices, all taken as in range); the slicing ops charge them
// through setPerfEstimate. PopLibs has no formula for the others (its sort and one-hot vertices
// differ), which run at their interpreted cycles; their estimators count these vertices' loops:
// regions are the one-hot pieces, iota or AllTrue regions, sort blocks, or merge pairs as
// (lower, upper) sizes one after the other.
#pragma once

#include "CycleEstimators.hpp"

namespace popops::internal {

std::uint64_t dynamicSlice1DCycles(const VertexCost &c);
std::uint64_t dynamicSlice2DCycles(const VertexCost &c);
std::uint64_t dynamicUpdateSlice1DCycles(const VertexCost &c);
std::uint64_t dynamicUpdateSlice2DCycles(const VertexCost &c);
std::uint64_t multiSliceCycles(const VertexCost &c);
std::uint64_t multiUpdateCycles(const VertexCost &c);
std::uint64_t multiUpdateAddCycles(const VertexCost &c);
std::uint64_t multiUpdateMaxCycles(const VertexCost &c);
std::uint64_t multiUpdateMulCycles(const VertexCost &c);
std::uint64_t sequenceSliceCycles(const VertexCost &c);
std::uint64_t encodeOneHotCycles(const VertexCost &c);
std::uint64_t iotaCycles(const VertexCost &c);
std::uint64_t allTrueCycles(const VertexCost &c);
std::uint64_t sortBlocksCycles(const VertexCost &c);
std::uint64_t mergeSplitCycles(const VertexCost &c);

} // namespace popops::internal
