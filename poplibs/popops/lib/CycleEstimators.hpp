// The popops vertex cycle estimators named in codelets/popops/Vertices.def: PopLibs' formulas for
// what each vertex costs on the IPU, in tile cycles. The simulator measures the real cycles on the
// interpreter; these predict them (for planners, and for the tests that set the two side by side).
#pragma once

#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

#include <cstdint>
#include <vector>

namespace popops::internal {

/// What an estimator needs to know about one vertex instance: its template arguments (the op
/// as its enumerator value, or -1; the element type and the output type) and the element count of
/// each region it processes (one entry for 1-D vertices).
struct VertexCost {
  const poplar::Target &target;
  int op;
  poplar::Type type;
  poplar::Type outType;
  std::vector<unsigned> regions;
  /// Slice vertices: the rows each region copies (numSubElements, or the number of indices).
  unsigned slices = 0;
};

using CycleEstimator = std::uint64_t (*)(const VertexCost &);

} // namespace popops::internal
