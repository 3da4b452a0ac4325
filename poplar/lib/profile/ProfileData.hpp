// What a compile and its runs report: the in-memory form of profile.pop and of the summary.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace poplar::detail {

enum class MemoryCategory {
#define MEMORY_CATEGORY(id, label) id,
#include "profile/MemoryCategories.def"
  NumCategories
};
constexpr unsigned kNumMemoryCategories = unsigned(MemoryCategory::NumCategories);
const char *memoryCategoryLabel(MemoryCategory c);
const char *memoryCategoryId(MemoryCategory c);

struct TileMemoryUsage {
  /// Every allocation by category, each counted in full even where not-always-live data shares
  /// addresses (so the categories may add up to more than the tile holds).
  std::array<std::uint64_t, kNumMemoryCategories> bytes{};
  std::uint64_t gaps = 0; // alignment padding between allocations
  /// Bytes of not-always-live blocks (short-lived variables, compute-set copy buffers), counted
  /// in full, and the bytes of the regions they share: the tile's peak of such data as laid out.
  std::uint64_t sharedBytes = 0, notAlwaysLive = 0;
  std::uint64_t categoryTotal() const {
    std::uint64_t n = 0;
    for (auto b : bytes)
      n += b;
    return n;
  }
  /// Bytes held for the whole run.
  std::uint64_t alwaysLive() const { return categoryTotal() - sharedBytes; }
  std::uint64_t excludingGaps() const { return alwaysLive() + notAlwaysLive; }
  std::uint64_t includingGaps() const { return excludingGaps() + gaps; }
};

struct VertexTypeUsage {
  std::string name;
  std::uint64_t instances = 0;
  std::uint64_t stateBytes = 0;
  std::uint64_t cycles = 0; // summed over all executions (execution profile)
  /// Part of stateBytes that holds pointers to connected fields ("Edge pointers" in the summary).
  std::uint64_t edgePointerBytes = 0;
};

/// One lowered program step (an entry of the executable), described for the profile.
struct ProfileStep {
  std::string kind; // "OnTileExecute", "DoExchange", "StreamCopy", "Sync", "Print", "Control"
  std::string name;
  std::uint32_t firstTile = 0, lastTile = 0; // tiles taking part, inclusive range
};

/// One executed step: global BSP clock at its start and end.
struct StepExecution {
  std::uint32_t run = 0;
  std::uint32_t step = 0;
  std::uint64_t cyclesFrom = 0, cyclesTo = 0;
};

/// Cycles a tile spent in each BSP phase, summed over all runs.
struct TileCycles {
  std::uint64_t computeIncludingIdle = 0;
  std::uint64_t computeExcludingIdle = 0;
  std::uint64_t internalExchange = 0;
  std::uint64_t globalExchange = 0;
  std::uint64_t hostExchange = 0;
  std::uint64_t sync = 0;
};

struct ProgramRun {
  std::uint32_t programIndex = 0;
  std::string name;
  std::uint64_t cyclesFrom = 0, cyclesTo = 0;
};

struct ProfileData {
  // Target
  std::string targetType; // "IPU_MODEL", "IPU" or "CPU"
  std::string arch;
  unsigned numIPUs = 1, tilesPerIPU = 0, numTiles = 0, numWorkerContexts = 6;
  unsigned numReplicas = 1; // numIPUs counts every replica's IPUs
  std::uint64_t bytesPerTile = 0;
  double clockHz = 0;
  std::string poplarVersion; // "3.4.0 (<hash>)"

  // Graph
  std::uint64_t numVertices = 0, numEdges = 0, numVariables = 0, numComputeSets = 0;

  // Memory, per tile
  std::vector<TileMemoryUsage> tileMemory;
  std::vector<VertexTypeUsage> vertexTypes;
  std::vector<ProfileStep> steps;

  // Execution (empty until a run)
  std::vector<ProgramRun> runs;
  std::vector<StepExecution> executions;
  std::vector<TileCycles> tileCycles; // numTiles entries once anything ran: each tile's own part
  // What every tile spent alike (syncs, exchanges, the compute phases they waited out), kept once
  // rather than added to each tile's entry at every run.
  TileCycles everyTile;
  std::uint64_t totalCycles = 0;

  /// Tile t's cycles in each phase: its own part and what every tile spent.
  TileCycles cyclesOfTile(std::size_t t) const {
    const TileCycles &own = tileCycles[t];
    return {own.computeIncludingIdle + everyTile.computeIncludingIdle,
            own.computeExcludingIdle + everyTile.computeExcludingIdle,
            own.internalExchange + everyTile.internalExchange,
            own.globalExchange + everyTile.globalExchange,
            own.hostExchange + everyTile.hostExchange,
            own.sync + everyTile.sync};
  }
};

} // namespace poplar::detail
