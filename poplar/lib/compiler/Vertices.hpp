// Vertex compilation: codelet data, worker stacks, vertex state and field binding per tile.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "compiler/Liveness.hpp"
#include "compiler/TileAllocator.hpp"
#include "graph/GraphState.hpp"

namespace poplar::detail {

/// Reserves, at offset 0 of every tile that runs vertices, the data sections of the codelet
/// objects those vertices use (the same layout on every such tile). Call before any other
/// allocation. Fills out.codelets and out.vertexTypes.
void placeCodeletData(const GraphState &graph, CompiledGraph &out, TileAllocator &alloc);

/// Lays out worker stacks and each vertex's state on its tile, binds every field to tile
/// addresses (adding copy-in/copy-out through a local buffer for data that is remote,
/// fragmented or misaligned) and fills out.computeSets and out.stacks. Needs out.variables.
/// Copy buffers of compute sets that `liveness` places share memory with those of compute sets
/// that never run at the same step. Throws graph_connection_error for unconnected fields and
/// unmapped vertices.
void compileVertices(const GraphState &graph, const Liveness &liveness, CompiledGraph &out,
                     TileAllocator &alloc);

} // namespace poplar::detail
