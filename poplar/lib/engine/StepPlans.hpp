// How each step's work is cut for the host threads: made on a step's first execution, reused by
// every later one, so a step allocates nothing.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "engine/CopyGroups.hpp"
#include "engine/HandOffChoice.hpp"
#include "engine/TileCopyIn.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace poplar::detail {

/// Host-time estimates that decide whether a step is worth handing to the worker pool and
/// where its chunks are cut. They only schedule work: results and simulated cycles never depend
/// on them (docs/architecture.md, "The BSP executor").
struct HostCost {
  static constexpr double kWorkerRunNs = 60;     // one interpreter run: state, launch, schedule
  static constexpr double kThreadCycleNs = 2;    // one thread cycle, about one ISA instruction
  static constexpr double kCopyRunNs = 10;       // one byte run of a copy
  static constexpr double kGroupRunNs = 2;       // one run of a strided group after its first
  static constexpr double kCopyByteNs = 0.05;    // a byte of memcpy (about 20 GB/s)
  static constexpr double kMinParallelNs = 15e3; // below this, a hand-off costs more than it saves
  // Chunks are claimed one at a time, so uneven tiles balance; a thread that is descheduled
  // holds back only the chunk it claimed, so chunks are kept short: at least kChunksPerThread
  // per thread, and more for a long step so that none exceeds about kChunkNs.
  static constexpr unsigned kChunksPerThread = 4;
  static constexpr double kChunkNs = 2e3;
  // A tile that costs more than kSplitTileNs is split into parts of at least kTilePartNs, at
  // most one per worker context.
  static constexpr double kSplitTileNs = 50e3;
  static constexpr double kTilePartNs = 20e3;
};

/// Contiguous chunks of a step's items (tiles or copy runs): chunk c is [begin[c], begin[c+1]).
struct Chunks {
  std::vector<std::size_t> begin; // chunk starts, then the item count
  bool parallel = false;          // worth the pool (else the caller runs the items in order)
  std::uint32_t count() const { return begin.empty() ? 0 : std::uint32_t(begin.size() - 1); }
};

/// A byte copy (exchange runs, a stream copy's runs, a compute set's copy-in or -out).
struct CopyPlan {
  Chunks chunks;
  HandOffChoice handOff;
  std::vector<std::size_t> offset; // packed byte offset of each chunk's first run
  std::size_t bytes = 0;           // all runs' bytes
  /// A copy between tiles: its runs folded into strided groups, which the chunks cut (a stream
  /// copy's chunks cut its runs).
  std::vector<CopyGroup> groups;
  /// For each group, how many groups from it on are rows of one lattice (latticeRows; 1 where
  /// it is not in one), so that a run does not look for lattices again.
  std::vector<std::uint32_t> latticeRows;
};

/// One tile's share of a compute set and its latest result, or a part of it (splitTiles).
struct TileWork {
  std::uint32_t tile = 0;
  std::uint32_t begin = 0, end = 0; // its vertices in CompiledComputeSet::vertices
  double costNs = 0;                // estimated host time
  std::uint64_t tileCycles = 0;     // this execution's compute-phase cycles on the tile
  std::uint64_t busyCycles = 0;     // excluding idle worker contexts
  // A part of a split tile runs from worker beginWorker of vertex `begin` to worker endWorker
  // (exclusive; 0 for all) of vertex end - 1, every run on the stack of worker context
  // `context` (the part's index on its tile), and leaves its cycles in runCycles: the tile's
  // schedule is made when all its parts have run (finishSplitTile), into its first part.
  bool part = false;
  std::uint16_t context = 0;
  std::uint32_t beginWorker = 0, endWorker = 0;
};

/// The parts [first, first + count) of ComputePlan::tiles that make one split tile.
struct SplitTile {
  std::uint32_t first = 0, count = 0;
};

/// Consecutive vertices of one type, [begin, end) in CompiledComputeSet::vertices: a step adds
/// their cycles to the profile's per-type counter once per span, not once per vertex.
struct TypeSpan {
  std::uint32_t type = 0;
  std::uint32_t begin = 0, end = 0;
};

struct ComputePlan {
  std::vector<TileWork> tiles;
  std::vector<std::uint64_t> vertexCycles; // this execution's thread cycles of each vertex
  std::vector<TypeSpan> typeSpans;
  Chunks chunks;
  HandOffChoice handOff;
  bool measured = false; // chunks cut from measured cycles (else from vertex counts)
  CopyPlan copyIn, copyOut;
  /// The copy-in by tile, when it may move so (TileCopyIn.hpp); else copyIn moves it.
  std::unique_ptr<TileCopyIn> tileCopyIn;
  // Split tiles only: each vertex's first slot in runCycles, and each run's cycles.
  std::vector<SplitTile> splits;
  std::vector<std::uint32_t> runOffset;
  std::vector<std::uint64_t> runCycles;
};

CopyPlan planCopy(const std::vector<MemRun> &runs, unsigned threads);
CopyPlan planCopy(const std::vector<CopyRun> &runs, unsigned threads);
ComputePlan planCompute(const CompiledGraph &cg, const CompiledComputeSet &cs, unsigned threads);
/// Re-cuts `plan` from the cycles its tiles just measured (once: cycles seldom change), a tile
/// that costs much more than a chunk split into parts that threads run side by side (as the
/// tile's worker contexts do). The parts depend on the cycles only, never on `threads`, so
/// results stay the same for any thread count.
void replanFromMeasurement(ComputePlan &plan, const CompiledGraph &cg, const CompiledComputeSet &cs,
                           unsigned threads);

} // namespace poplar::detail
