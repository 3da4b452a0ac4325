// The poprand vertex cycle estimators named in codelets/poprand/Vertices.def, with popops'
// signature (popops/lib/CycleEstimators.hpp): whole-vertex tile cycles for `regions[0]` elements.
#pragma once

#include "popops/lib/CycleEstimators.hpp"

#include <string>

namespace poprand::internal {

using popops::internal::CycleEstimator;
using popops::internal::VertexCost;

#define POPRAND_DECLARE_ESTIMATOR(estimator) std::uint64_t estimator(const VertexCost &cost);
#define POPRAND_VERTEX(name, types, estimator) POPRAND_DECLARE_ESTIMATOR(estimator)
#define POPRAND_PLAIN_VERTEX(name, estimator) POPRAND_DECLARE_ESTIMATOR(estimator)
#define POPRAND_ALL_FAMILIES
#include "poprand/Vertices.def"
#undef POPRAND_ALL_FAMILIES
#undef POPRAND_DECLARE_ESTIMATOR

/// The estimator of vertex template `name` ("Uniform"), from Vertices.def.
CycleEstimator estimatorOf(const std::string &name);

} // namespace poprand::internal
