// Tile memory layout: where every variable element lives, and how full each tile is.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "compiler/Liveness.hpp"
#include "compiler/TileAllocator.hpp"
#include "graph/GraphState.hpp"

namespace poplar::detail {

/// Throws graph_program_compilation_error naming the first variable with unmapped elements.
void checkAllMapped(const GraphState &graph);

/// Places every mapped variable piece in its tile's memory (constants and initial values as
/// initial contents) and fills `out.variables`. Variables that `liveness` finds not always-live
/// share one region per tile with those whose live ranges they do not meet.
void layOutVariables(const GraphState &graph, const Liveness &liveness, CompiledGraph &out,
                     TileAllocator &alloc);

/// Throws graph_memory_allocation_error naming the fullest tiles and what fills them.
void checkTileMemory(const CompiledGraph &out);

/// Where the elements of `t` live, in element order, as merged runs of tile memory.
TensorLocation locate(const CompiledGraph &cg, const Tensor &t);

} // namespace poplar::detail
