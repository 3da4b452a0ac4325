// Runs the vertices of one compute set on one tile through the tile interpreter or the native
// tier.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "gp/GpFile.hpp"
#include "interp/Decoder.hpp"
#include "interp/Interpreter.hpp"
#include "interp/Steps.hpp"

#include <cstdint>
#include <vector>

namespace poplar::detail {

/// A codelet object ready to run: decoded once, its code relocated to its data address.
struct LoadedCodelet {
  gp::GpFile file;
  interp::DecodedCode code;
  std::uint32_t dataAddress = 0;
};

/// Decodes every codelet of `cg`. Throws graph_object_load_error for a corrupt object.
std::vector<LoadedCodelet> loadCodeletObjects(const CompiledGraph &cg);

struct TileComputeResult {
  std::uint64_t tileCycles = 0; // the compute set's time on this tile
  std::uint64_t busyCycles = 0; // excluding idle worker contexts
};

class NativeVertexCode;
class MemoryChecker;

/// A tile's memory as vertex code sees it, with the bounds of its one-compare access check:
/// the executor makes one per tile when a run starts, not one per vertex.
struct TileView {
  interp::TileMemory mem;
  interp::ops::Window window;
};
TileView viewOf(std::vector<std::uint8_t> &memory);

/// Runs cs.vertices[begin, end) (all on one tile) over `tile` in the calling thread's
/// `scratch` state, on the tier `native` chooses for each vertex type, writing each vertex's
/// thread cycles (summed over its workers) to vertexCycles[i - begin]; allocates nothing (but a
/// memory-checked run its first map on each thread). A
/// fault or a compute() that returns false throws application_runtime_error naming vertex,
/// tile, compute set, pc and line. With `checker` (debug.checkMemoryAccess) every vertex runs
/// on the memory-checked interpreter, and a stray access names what it missed.
TileComputeResult runTileVertices(const CompiledGraph &cg,
                                  const std::vector<LoadedCodelet> &codelets,
                                  NativeVertexCode &native, const CompiledComputeSet &cs,
                                  std::size_t begin, std::size_t end, const TileView &tile,
                                  std::uint64_t *vertexCycles, interp::WorkerState &scratch,
                                  const MemoryChecker *checker = nullptr);

} // namespace poplar::detail
