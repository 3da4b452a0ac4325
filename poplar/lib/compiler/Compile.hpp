// Graph compilation: validation, tile memory layout and lowering of programs to steps.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "graph/GraphState.hpp"

#include <poplar/Program.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace poplar::detail {

/// Compiles the graph and its programs into a self-contained executable form.
/// Throws graph_memory_allocation_error, graph_program_compilation_error and friends. Before an
/// out-of-memory error is thrown, `onOutOfMemory` (if set) receives the profile so far (target,
/// graph and per-tile memory), so the caller can save it as Poplar does.
std::unique_ptr<CompiledGraph>
compile(const GraphState &graph, const std::vector<program::Program> &programs,
        const std::function<void(const ProfileData &)> &onOutOfMemory = {});

} // namespace poplar::detail
