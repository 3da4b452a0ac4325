// The plain structs a profile.pop is loaded into; every pva accessor reads from these.
#pragma once

#include <pva/pva.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace pva::detail {

struct TargetData {
  std::string type, arch;
  unsigned numIPUs = 0, tilesPerIpu = 0, numTiles = 0, numReplicas = 1, numWorkerContexts = 0;
  std::uint64_t bytesPerTile = 0;
  double clockHz = 0;
};

struct GraphData {
  std::uint64_t numVertices = 0, numEdges = 0, numVariables = 0, numComputeSets = 0;
};

struct TileData {
  MemoryCategories categories;
  std::uint64_t bytes = 0; // every category, including any this libpva has no member for
  std::uint64_t gaps = 0;
  /// What the tile holds: data kept for the whole run, and the regions not-always-live data
  /// shares (the categories count shared data in full, so `bytes` may be larger).
  std::uint64_t alwaysLive = 0, notAlwaysLive = 0;
};

struct ProgramData {
  std::string kind, name;
  unsigned firstTile = 0, lastTile = 0;
};

struct RunData {
  unsigned program = 0;
  std::string name;
  std::uint64_t cyclesFrom = 0, cyclesTo = 0;
};

struct StepData {
  unsigned run = 0, program = 0;
  std::uint64_t cyclesFrom = 0, cyclesTo = 0;
};

struct VertexTypeData {
  std::string name;
  std::uint64_t instances = 0, stateBytes = 0, edgePointerBytes = 0, cycles = 0;
};

struct ReportData {
  std::string path;
  unsigned formatVersion = 0;
  std::string poplarVersion;
  TargetData target;
  GraphData graph;
  std::vector<TileData> tiles;
  std::vector<VertexTypeData> vertexTypes;
  std::vector<ProgramData> programs;
  std::vector<RunData> runs;
  std::vector<StepData> steps;        // ordered by execution
  std::vector<TileCycles> tileCycles; // one per tile once a run is recorded, else empty
  std::uint64_t totalCycles = 0;
};

/// Loads the whole report; throws pva::exception naming `path` and the SQLite error.
std::shared_ptr<const ReportData> loadReport(const std::string &path);

/// The category member that a memory_category name refers to, or nullptr if unknown.
MemoryCategoryUsage *categoryByName(MemoryCategories &categories, const std::string &name);

} // namespace pva::detail
