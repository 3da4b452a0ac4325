// The BSP executor: walks a program's steps over the tiles' memories, adding simulated cycles.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "engine/NativeVertexCode.hpp"
#include "engine/StepPlans.hpp"
#include "engine/StreamConnection.hpp"
#include "engine/TileMemories.hpp"
#include "engine/VertexRunner.hpp"
#include "engine/WorkerPool.hpp"

#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <vector>

namespace poplar::detail {

/// The device state an Engine owns while loaded.
struct DeviceState {
  TileMemories tiles;                    // memory image of each tile
  std::vector<StreamConnection> streams; // one per CompiledGraph::streams entry
  std::uint64_t clock = 0;               // simulated cycles since load
  std::uint64_t loads = 0; // counts the loads that replaced `tiles`: views of them are stale
};

/// One per engine, for its lifetime: it keeps the step plans and the worker pool between runs.
class Executor {
public:
  /// `hostThreads` counts the calling thread; the pool starts on the first step that needs it.
  /// With `checker` (debug.checkMemoryAccess) vertices run memory-checked.
  Executor(const CompiledGraph &cg, const std::vector<LoadedCodelet> &codelets,
           NativeVertexCode &native, DeviceState &device, ProfileData &profile,
           unsigned hostThreads, const MemoryChecker *checker = nullptr);

  /// Runs program `index` to its end, printing to `printStream`; returns the cycles it took.
  std::uint64_t run(unsigned index, std::ostream &printStream);

private:
  void compute(std::uint32_t computeSet);
  void runVertices(const CompiledComputeSet &cs, ComputePlan &plan);
  void exchange(std::uint32_t index);
  /// Moves the bytes of the copy `plan` was made for (its strided groups) as one exchange
  /// phase; `staged` when sources and destinations overlap.
  void runCopies(CopyPlan &plan, bool staged);
  void streamCopy(std::uint32_t index);
  /// Calls chunk(c, thread) for every chunk, on the pool when `chunks` is worth it and
  /// `handOff` finds it pays.
  template <class Chunk> void runChunks(const Chunks &chunks, HandOffChoice &handOff, Chunk chunk);
  /// Calls body(firstRun, endRun, packedOffset) for each chunk of a copy.
  template <class Body> void forChunks(CopyPlan &plan, Body body);
  void print(const CompiledPrint &p);
  std::int64_t readScalar(const ScalarRef &s) const;
  /// Adds cycles to every tile's `phase` counter and advances the clock: the tiles' share is
  /// kept once in the profile (ProfileData::everyTile), so neither a step nor a run costs
  /// O(tiles).
  void advance(std::uint64_t TileCycles::*phase, std::uint64_t cycles);
  void recordStep(std::uint32_t step, std::uint64_t from);
  WorkerPool &pool();

  const CompiledGraph &cg_;
  const std::vector<LoadedCodelet> &codelets_;
  NativeVertexCode &native_;
  const MemoryChecker *checker_;
  DeviceState &device_;
  ProfileData &profile_;
  std::ostream *print_ = nullptr;
  unsigned threads_;
  std::unique_ptr<WorkerPool> pool_;
  /// A host thread's interpreter state, on cache lines of its own: threads write theirs on
  /// every instruction.
  struct alignas(64) Scratch {
    interp::WorkerState state;
  };
  std::vector<Scratch> scratch_; // one per host thread, reused by every vertex run
  std::uint32_t run_ = 0;

  // Plans, made on each step's first execution.
  std::vector<std::optional<ComputePlan>> computePlans_;
  std::vector<std::optional<CopyPlan>> exchangePlans_, streamPlans_;
  std::vector<std::uint8_t *> tileBase_; // each tile's memory, as of load number viewsOfLoad_
  std::vector<TileView> tileViews_;      // the same for vertex code, with its access bounds
  std::uint64_t viewsOfLoad_ = ~std::uint64_t(0);
  // Buffers reused by every step: staged exchanges, stream copies.
  std::vector<std::uint8_t> staging_, hostBytes_;
  std::vector<std::uint64_t> loopCounters_;
  std::vector<std::uint32_t> returnStack_;
  // The failure of the lowest tile of a compute step, whichever thread ran it.
  std::mutex errorMutex_;
  std::size_t errorTile_ = 0;
  std::exception_ptr error_;
};

} // namespace poplar::detail
