// The BSP executor: walks a program's steps over the tiles' memories, adding simulated cycles.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "engine/StreamConnection.hpp"
#include "engine/VertexRunner.hpp"

#include <ostream>
#include <vector>

namespace poplar::detail {

/// The device state an Engine owns while loaded.
struct DeviceState {
  std::vector<std::vector<std::uint8_t>> tiles; // memory image of each tile
  std::vector<StreamConnection> streams;        // one per CompiledGraph::streams entry
  std::uint64_t clock = 0;                      // simulated cycles since load
};

class Executor {
public:
  Executor(const CompiledGraph &cg, const std::vector<LoadedCodelet> &codelets, DeviceState &device,
           ProfileData &profile, std::ostream &printStream)
      : cg_(cg), codelets_(codelets), device_(device), profile_(profile), print_(printStream) {}

  /// Runs program `index` to its end; returns the cycles it took.
  std::uint64_t run(unsigned index);

private:
  void compute(std::uint32_t computeSet);
  void exchange(std::uint32_t index);
  /// Moves bytes as one exchange phase; `staged` when sources and destinations overlap.
  void runCopies(const std::vector<CopyRun> &runs, bool staged);
  void streamCopy(std::uint32_t index);
  void print(const CompiledPrint &p);
  std::int64_t readScalar(const ScalarRef &s) const;
  std::vector<std::uint8_t> gather(const std::vector<MemRun> &runs) const;
  void scatter(const std::vector<MemRun> &runs, const std::vector<std::uint8_t> &bytes);
  /// Adds cycles to every tile's `phase` counter and advances the clock.
  void advance(std::uint64_t TileCycles::*phase, std::uint64_t cycles);
  void recordStep(std::uint32_t step, std::uint64_t from);

  const CompiledGraph &cg_;
  const std::vector<LoadedCodelet> &codelets_;
  DeviceState &device_;
  ProfileData &profile_;
  std::ostream &print_;
  std::uint32_t run_ = 0;
};

} // namespace poplar::detail
