// Cycle estimators of the NaN-check, loop-counter, scalar-in-rows and image-normalisation
// vertices (codelets/popops/NaN.cpp, Loop.cpp, ScalarInRows.cpp, NormaliseImage.cpp). The
// reference gives no PopLibs formula for them, so, like the encoding ones, they count these
// vertices' loops: VertexCost::regions holds the element count of each region (HasNaNOrInf),
// piece (the row vertices) or the pixels (NormaliseImage).
#pragma once

#include "CycleEstimators.hpp"

namespace popops::internal {

std::uint64_t hasNaNOrInf1DCycles(const VertexCost &c);
std::uint64_t hasNaNOrInf2DCycles(const VertexCost &c);
std::uint64_t counterCycles(const VertexCost &c);
std::uint64_t selectFromRowsCycles(const VertexCost &c);
std::uint64_t updateScalarInRowsCycles(const VertexCost &c);
std::uint64_t normaliseImageCycles(const VertexCost &c);

} // namespace popops::internal
