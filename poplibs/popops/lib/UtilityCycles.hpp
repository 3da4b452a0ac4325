// Cycle estimators of the NaN-check, counter, scalar-in-rows, image-normalisation and histogram
// vertices (codelets/popops/NaN.cpp, Loop.cpp, CircBuf.cpp, ScalarInRows.cpp, NormaliseImage.cpp,
// Histogram.cpp). The reference gives no PopLibs formula for them, so, like the encoding ones,
// they count these vertices' loops: VertexCost::regions holds the element count of each region
// (HasNaNOrInf, Histogram), piece (the row vertices) or the pixels (NormaliseImage).
#pragma once

#include "CycleEstimators.hpp"

namespace popops::internal {

std::uint64_t hasNaNOrInf1DCycles(const VertexCost &c);
std::uint64_t hasNaNOrInf2DCycles(const VertexCost &c);
std::uint64_t counterCycles(const VertexCost &c);
std::uint64_t selectFromRowsCycles(const VertexCost &c);
std::uint64_t updateScalarInRowsCycles(const VertexCost &c);
std::uint64_t normaliseImageCycles(const VertexCost &c);
/// Histogram: VertexCost::slices holds the number of levels.
std::uint64_t histogramCycles(const VertexCost &c);

} // namespace popops::internal
