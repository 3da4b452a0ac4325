// Liveness of variables and compute-set temporaries over the program trees, for tile memory reuse.
#pragma once

#include "graph/GraphState.hpp"

#include <poplar/Program.hpp>

#include <cstdint>
#include <vector>

namespace poplar::detail {

/// Steps [first, last] of the flattened programs, both ends included.
struct StepRange {
  std::uint32_t first = 0, last = 0;
};

struct Liveness {
  /// Per variable: true when it must keep its memory for the whole run (host-visible, constant,
  /// read before written, used by several programs or by a function, or anything unsure).
  std::vector<bool> alwaysLive;
  /// Per variable that is not always-live: the steps over which its value must survive.
  std::vector<StepRange> varRange;
  /// Per compute set: the steps that execute it (its field copy buffers are live only there),
  /// and whether it runs inside a function (then its buffers stay always-live).
  std::vector<std::vector<StepRange>> computeSetSteps;
  std::vector<bool> computeSetAlwaysLive;
};

/// Flattens `programs` (in order, one numbering for all) and the graph's functions into steps
/// and finds, for every variable, its live range from first write to last read, widened to
/// whole loops where its value crosses a loop's back edge. Conservative: when a variable's value
/// could be observed outside that range it is always-live.
Liveness analyseLiveness(const GraphState &graph, const std::vector<program::Program> &programs);

/// True when two sets of step ranges share a step.
bool overlaps(const std::vector<StepRange> &a, const std::vector<StepRange> &b);

} // namespace poplar::detail
