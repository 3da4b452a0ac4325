// The popnn vertex cycle estimators named in codelets/popnn/Vertices.def, with popops' signature
// (popops/lib/CycleEstimators.hpp): tile cycles for a MultiVertex, thread cycles for a Vertex.
// VertexCost::op is the NonLinearityType for the NonLinearity vertices; regions are the element
// counts (one entry for 1-D vertices and the loss and arg max vertices).
#pragma once

#include "popops/lib/CycleEstimators.hpp"

#include <string>

namespace popnn::internal {

using popops::internal::CycleEstimator;
using popops::internal::VertexCost;

#define POPNN_DECLARE_ESTIMATOR(estimator) std::uint64_t estimator(const VertexCost &cost);
#define POPNN_NL_VERTEX(name, estimator) POPNN_DECLARE_ESTIMATOR(estimator)
#define POPNN_VERTEX(name, types, estimator) POPNN_DECLARE_ESTIMATOR(estimator)
#define POPNN_CLASS_VERTEX(name, types, estimator) POPNN_DECLARE_ESTIMATOR(estimator)
#define POPNN_ALL_FAMILIES
#include "popnn/Vertices.def"
#undef POPNN_ALL_FAMILIES
#undef POPNN_DECLARE_ESTIMATOR

/// The estimator of vertex template `name` ("NonLinearity1D"), from Vertices.def.
CycleEstimator estimatorOf(const std::string &name);

} // namespace popnn::internal
