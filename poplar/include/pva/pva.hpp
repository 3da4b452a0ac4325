// libpva: read a profile.pop written by the Engine (target, graph, tile memory, execution).
#ifndef pva_pva_hpp
#define pva_pva_hpp

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace pva {

/// Thrown when a report cannot be opened or read; the message names the file and the cause.
class exception : public std::runtime_error {
public:
  explicit exception(const std::string &what) : std::runtime_error(what) {}
};

namespace detail {
struct ReportData;
struct StepData;
} // namespace detail

/// A Poplar version as recorded in the report, e.g. "3.4.0 (d9e4130346)".
class Version {
public:
  explicit Version(const std::string &text = "");
  const std::string &string() const { return text_; }
  unsigned majorVer() const { return major_; }
  unsigned minorVer() const { return minor_; }
  unsigned pointVer() const { return point_; }
  /// The hash in parentheses, empty if the version has none.
  const std::string &packageHash() const { return hash_; }

private:
  std::string text_, hash_;
  unsigned major_ = 0, minor_ = 0, point_ = 0;
};

class Target {
public:
  enum class Type { CPU, IPU, IPUModel, Unknown };
  explicit Target(std::shared_ptr<const detail::ReportData> data) : data_(std::move(data)) {}
  Type type() const;
  /// The IPU architecture name: "ipu1", "ipu2", "ipu21".
  std::string arch() const;
  unsigned numIPUs() const;
  unsigned numReplicas() const;
  unsigned tilesPerIpu() const;
  unsigned numTiles() const;
  unsigned numWorkerContexts() const;
  std::uint64_t bytesPerTile() const;
  std::uint64_t bytesPerIPU() const;
  /// Tile clock in Hz.
  double clockFrequency() const;

private:
  std::shared_ptr<const detail::ReportData> data_;
};

class Graph {
public:
  explicit Graph(std::shared_ptr<const detail::ReportData> data) : data_(std::move(data)) {}
  std::uint64_t numComputeSets() const;
  std::uint64_t numVertices() const;
  std::uint64_t numEdges() const;
  std::uint64_t numVariables() const;

private:
  std::shared_ptr<const detail::ReportData> data_;
};

/// Bytes of one memory category on one tile.
class MemoryCategoryUsage {
public:
  MemoryCategoryUsage() {}
  explicit MemoryCategoryUsage(std::uint64_t bytes) : bytes_(bytes) {}
  std::uint64_t total() const { return bytes_; }

private:
  std::uint64_t bytes_ = 0;
};

/// One member per category of the profile; names match the report's memory_category table.
struct MemoryCategories {
  MemoryCategoryUsage variables, constants, hostExchangePacketHeaders, globalExchangePacketHeaders,
      stack, vertexInstanceState, copyDescriptor, vectorListDescriptor, vertexFieldData,
      controlTable, controlCode, vertexCode, internalExchangeCode, hostExchangeCode,
      globalExchangeCode, instrumentationResults, sharedCodeStorage, sharedDataStorage;
};

class MemoryTotal {
public:
  MemoryTotal(std::uint64_t including, std::uint64_t excluding)
      : including_(including), excluding_(excluding) {}
  /// Bytes including the alignment gaps between allocations.
  std::uint64_t includingGaps() const { return including_; }
  std::uint64_t excludingGaps() const { return excluding_; }

private:
  std::uint64_t including_, excluding_;
};

class TileMemory {
public:
  TileMemory(const MemoryCategories &categories, std::uint64_t alwaysLive,
             std::uint64_t notAlwaysLive, std::uint64_t gaps)
      : categories_(categories), alwaysLive_(alwaysLive), notAlwaysLive_(notAlwaysLive),
        gaps_(gaps) {}
  /// What the tile holds: always-live bytes plus the not-always-live region, and the gaps.
  MemoryTotal total() const {
    return MemoryTotal(alwaysLive_ + notAlwaysLive_ + gaps_, alwaysLive_ + notAlwaysLive_);
  }
  /// Per category; data that is not always-live counts in full in its category, so the
  /// categories may add up to more than total().
  const MemoryCategories &category() const { return categories_; }
  /// Bytes held for the whole run.
  std::uint64_t alwaysLiveBytes() const { return alwaysLive_; }
  /// Bytes of the region in which not-always-live data (short-lived variables, compute-set copy
  /// buffers) shares addresses: the tile's peak of such data as laid out.
  std::uint64_t notAlwaysLiveBytes() const { return notAlwaysLive_; }

private:
  MemoryCategories categories_;
  std::uint64_t alwaysLive_, notAlwaysLive_, gaps_;
};

class Tile {
public:
  Tile(unsigned index, const TileMemory &memory) : index_(index), memory_(memory) {}
  unsigned index() const { return index_; }
  const TileMemory &memory() const { return memory_; }

private:
  unsigned index_;
  TileMemory memory_;
};

/// A lowered program step: a compute set, an exchange, a stream copy phase, a sync.
class Program {
public:
  enum class Type {
    OnTileExecute,
    DoExchange,
    StreamCopyBegin,
    StreamCopyMid,
    StreamCopyEnd,
    Sync,
    Other
  };
  Program(std::shared_ptr<const detail::ReportData> data, unsigned index)
      : data_(std::move(data)), index_(index) {}
  const std::string &name() const;
  Type type() const;
  /// The kind recorded by the engine, e.g. "OnTileExecute", "StreamCopy", "Print".
  const std::string &kind() const;
  unsigned firstTile() const;
  unsigned lastTile() const;

private:
  std::shared_ptr<const detail::ReportData> data_;
  unsigned index_;
};

/// One execution of a program step on the global BSP clock.
class Step {
public:
  Step(std::shared_ptr<const detail::ReportData> data, unsigned index)
      : data_(std::move(data)), index_(index) {}
  std::shared_ptr<Program> program() const;
  /// Index into Execution::runs() of the run this step belongs to.
  unsigned run() const;
  std::uint64_t cyclesFrom() const;
  std::uint64_t cyclesTo() const;
  std::uint64_t cycles() const { return cyclesTo() - cyclesFrom(); }

private:
  std::shared_ptr<const detail::ReportData> data_;
  unsigned index_;
};

/// One Engine::run of a control program.
class Run {
public:
  Run(std::shared_ptr<const detail::ReportData> data, unsigned index)
      : data_(std::move(data)), index_(index) {}
  unsigned program() const;
  const std::string &name() const;
  std::uint64_t cyclesFrom() const;
  std::uint64_t cyclesTo() const;
  std::vector<Step> steps() const;

private:
  std::shared_ptr<const detail::ReportData> data_;
  unsigned index_;
};

/// A step seen from one tile, as lightweight profiling reports it. The simulator measures every
/// step exactly, so blocks never overflow and need no flush.
class Block {
public:
  Block(const Step &step, unsigned tile) : step_(step), tile_(tile) {}
  std::uint64_t cyclesFrom() const { return step_.cyclesFrom(); }
  std::uint64_t cyclesTo() const { return step_.cyclesTo(); }
  unsigned tile() const { return tile_; }
  std::shared_ptr<Program> program() const { return step_.program(); }
  bool isStreamCopy() const;
  bool isCommon() const { return !isStreamCopy() && !isOverflow() && !isBlockFlush(); }
  bool isOverflow() const { return false; }
  bool isBlockFlush() const { return false; }

private:
  Step step_;
  unsigned tile_;
};

/// One vertex type of the graph (a codelet, e.g. "popops::Fill<float>"): its instances and the
/// thread cycles its vertices took, summed over every worker and every execution (0 before the
/// first run). The cycles are the simulator's measurement on the tile interpreter, or the
/// Graph::setPerfEstimate value of a vertex that has one.
class VertexType {
public:
  VertexType(std::shared_ptr<const detail::ReportData> data, unsigned index)
      : data_(std::move(data)), index_(index) {}
  const std::string &name() const;
  std::uint64_t instances() const;
  /// Vertex state bytes of all instances, of which edge pointers.
  std::uint64_t stateBytes() const;
  std::uint64_t edgePointerBytes() const;
  std::uint64_t cycles() const;

private:
  std::shared_ptr<const detail::ReportData> data_;
  unsigned index_;
};

class Compilation {
public:
  explicit Compilation(std::shared_ptr<const detail::ReportData> data) : data_(std::move(data)) {}
  Target target() const { return Target(data_); }
  Graph graph() const { return Graph(data_); }
  std::vector<Tile> tiles() const;
  /// Every vertex type the graph instantiates, in the order of the report.
  std::vector<VertexType> vertexTypes() const;
  /// Every lowered step of the executable, in order.
  std::vector<std::shared_ptr<Program>> programs() const;

private:
  std::shared_ptr<const detail::ReportData> data_;
};

/// The cycles one tile spent in each BSP phase, summed over every run: they add up to the
/// execution's total cycles. Compute including idle threads is 6 x the busiest worker context's
/// thread cycles plus the supervisor's launch cycles (docs/cycle-model.md).
struct TileCycles {
  std::uint64_t computeIncludingIdle = 0, computeExcludingIdle = 0, internalExchange = 0,
                globalExchange = 0, hostExchange = 0, sync = 0;
};

class Execution {
public:
  explicit Execution(std::shared_ptr<const detail::ReportData> data) : data_(std::move(data)) {}
  /// The phases of `tile` (all zero before the first run); throws pva::exception for a tile the
  /// target does not have.
  TileCycles tileCycles(unsigned tile) const;
  std::vector<Run> runs() const;
  /// Every executed step of every run, in execution order.
  std::vector<Step> steps() const;
  /// Every executed step that `tile` took part in, in execution order.
  std::vector<Block> blocks(unsigned tile) const;
  /// Cycles of all runs on the global clock.
  std::uint64_t totalCycles() const;

private:
  std::shared_ptr<const detail::ReportData> data_;
};

class Report {
public:
  explicit Report(std::shared_ptr<const detail::ReportData> data) : data_(std::move(data)) {}
  Compilation compilation() const { return Compilation(data_); }
  Execution execution() const { return Execution(data_); }
  Version poplarVersion() const;
  /// The profile.pop schema version.
  unsigned formatVersion() const;

private:
  std::shared_ptr<const detail::ReportData> data_;
};

/// Reads a profile.pop. Throws pva::exception naming the file when it is missing, is not a
/// profile, or was written by a newer format.
Report openReport(const std::string &profileFilename);
/// As above; debug information is not recorded by this SDK, so `debugFilename` is only checked
/// to exist when it is not empty.
Report openReport(const std::string &profileFilename, const std::string &debugFilename);

} // namespace pva

#endif
