// Cycle estimators of the element-wise, fill, cast, scaled-add, select and clamp vertices (the
// estimator names of their codelets/popops/Vertices.def rows): PopLibs' formulas, with the inner
// loop cost of each op in one table keyed by the ops of codelets/popops/ElementwiseOps.hpp.
//
// VertexCost::regions holds the element count of each region (one entry for a 1-D vertex);
// VertexCost::op the UnaryOpType or BinaryOpType enumerator of an element-wise vertex; for a cast
// VertexCost::type is the source and VertexCost::outType the destination type. A MultiVertex
// (the 1-D forms) costs 6 x its slowest worker plus the supervisor's launch, in tile cycles; a
// Vertex (the 2-D forms) costs its own worker cycles, since six such run side by side.
#pragma once

#include "CycleEstimators.hpp"

namespace popops::internal {

std::uint64_t unaryOp1DCycles(const VertexCost &c);
std::uint64_t unaryOp1DInPlaceCycles(const VertexCost &c);
std::uint64_t unaryOp2DCycles(const VertexCost &c);
std::uint64_t binaryOp1DCycles(const VertexCost &c);
std::uint64_t binaryOp1DInPlaceCycles(const VertexCost &c);
std::uint64_t binaryOp2DCycles(const VertexCost &c);
std::uint64_t binaryOp2DInPlaceCycles(const VertexCost &c);
std::uint64_t fillCycles(const VertexCost &c);
std::uint64_t fill2dCycles(const VertexCost &c);
std::uint64_t cast1DCycles(const VertexCost &c);
std::uint64_t cast2DCycles(const VertexCost &c);
std::uint64_t scaledAdd1DCycles(const VertexCost &c);
std::uint64_t scaledAdd2DCycles(const VertexCost &c);
std::uint64_t select1DCycles(const VertexCost &c);
std::uint64_t clamp1DCycles(const VertexCost &c);

} // namespace popops::internal
