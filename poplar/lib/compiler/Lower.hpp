// Lowering of program trees into the flat step list of a CompiledGraph.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "graph/GraphState.hpp"

#include <poplar/Program.hpp>

namespace poplar::detail {

/// Appends the steps of `programs` (each ending in End) and of the graph's functions (each
/// ending in Return) to `out`, with the tables they index. Needs out.variables laid out.
void lowerPrograms(const GraphState &graph, const std::vector<program::Program> &programs,
                   CompiledGraph &out);

} // namespace poplar::detail
