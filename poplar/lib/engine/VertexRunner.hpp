// Runs the vertices of one compute set on one tile through the tile interpreter or the native
// tier.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "engine/StepPlans.hpp"
#include "gp/GpFile.hpp"
#include "interp/Decoder.hpp"
#include "interp/Interpreter.hpp"
#include "interp/Steps.hpp"

#include <cstdint>
#include <exception>
#include <vector>

namespace poplar::detail {

/// A codelet object ready to run: decoded once, its code relocated to its data address.
struct LoadedCodelet {
  gp::GpFile file;
  std::vector<std::uint64_t> words; // the code as loaded: relocated to dataAddress
  std::uint64_t wordsHash = 0;      // of `words`: the native tier's shared code is found by it
  interp::DecodedCode code;
  std::uint32_t dataAddress = 0;
};

/// Decodes every codelet of `cg`. Throws graph_object_load_error for a corrupt object.
std::vector<LoadedCodelet> loadCodeletObjects(const CompiledGraph &cg);

class NativeVertexCode;
class MemoryChecker;
class TileCopyIn;

/// A tile's memory as vertex code sees it, with the bounds of its one-compare access check:
/// the executor makes one per tile when a run starts, not one per vertex.
struct TileView {
  interp::TileMemory mem;
  interp::ops::Window window;
};
TileView viewOf(std::uint8_t *memory, std::uint32_t bytes);

/// What every vertex run of one compute step shares, gathered once per step rather than passed
/// to each tile.
struct VertexStep {
  const CompiledGraph &cg;
  const std::vector<LoadedCodelet> &codelets;
  NativeVertexCode &native;
  const CompiledComputeSet &cs;
  const TileView *tiles;        // each tile's view, by tile number
  std::uint64_t *vertexCycles;  // out: each vertex's thread cycles (summed over its workers)
  const MemoryChecker *checker; // debug.checkMemoryAccess: run memory-checked
  // Split tiles (ComputePlan): each vertex's first slot in runCycles, and each run's cycles.
  const std::uint32_t *runOffset;
  std::uint64_t *runCycles;
  // The compute set's copy-in, moved into each tile just before it runs (TileCopyIn.hpp); null
  // when the executor moved it all before the step.
  TileCopyIn *copyIn;
  std::uint8_t *const *tileBase; // each tile's memory, for copyIn
};

/// Runs the vertices of the tiles [first, last) of a compute step (or parts of tiles: TileWork),
/// one tile after another, in
/// the calling thread's `scratch` state, on the tier `step.native` chooses for each vertex
/// type, and sets each TileWork's cycles; allocates nothing (but a memory-checked run its first
/// map on each thread). One call per chunk of tiles, so what does not change from tile to tile
/// (the cycle model, a vertex type's lookups) is set up once. A fault or a compute() that
/// returns false is an application_runtime_error naming vertex, tile, compute set, pc and line;
/// with `step.checker` every vertex runs on the memory-checked interpreter, and a stray access
/// names what it missed. A failing tile does not stop the later ones: the first failure is
/// returned, with its tile in `*failed`; null if every tile ran.
std::exception_ptr runTiles(const VertexStep &step, TileWork *first, TileWork *last,
                            interp::WorkerState &scratch, TileWork **failed);

/// The schedule of a split tile, from the cycles its `count` parts from `parts` left in
/// step.runCycles (every part has run), into its first part; sets each vertex's cycles.
void finishSplitTile(const VertexStep &step, TileWork *parts, std::size_t count);

} // namespace poplar::detail
