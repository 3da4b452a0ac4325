// Tile memory layout: where every variable element lives, and how full each tile is.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "graph/GraphState.hpp"

namespace poplar::detail {

/// Throws graph_program_compilation_error naming the first variable with unmapped elements.
void checkAllMapped(const GraphState &graph);

/// Places every mapped variable piece in its tile's memory, fills `out.variables`,
/// `out.tileImages` (zeros, constants, initial values) and the memory part of `out.profile`.
void layOutVariables(const GraphState &graph, CompiledGraph &out);

/// Throws graph_memory_allocation_error naming the fullest tiles and what fills them.
void checkTileMemory(const CompiledGraph &out);

/// Where the elements of `t` live, in element order, as merged runs of tile memory.
TensorLocation locate(const CompiledGraph &cg, const Tensor &t);

} // namespace poplar::detail
