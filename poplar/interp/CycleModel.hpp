// Cycle model: thread cycles per instruction (Opcodes.def) and a compute set's time on one tile.
//
// A tile interleaves 6 worker contexts round-robin, one bundle each per 6 tile cycles, so a
// worker's thread cycles become tile cycles x 6 (ipu-model.md 1.2). For one compute set on one
// tile, vertices are placed in order, greedily, onto the least-loaded context; a MultiVertex
// waits until every context is free (runall needs all workers idle) and then loads context w
// with its worker w's cycles. Tile cycles = 6 x (busiest context) + supervisor launch overhead.
// Constants and their sources: docs/cycle-model.md, section "Compute".
#pragma once

#include "isa/Isa.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace poplar::interp {

constexpr unsigned kNumWorkerContexts = 6;

struct CycleModelParams {
  unsigned workerContexts = kNumWorkerContexts; // CTXT_WORKERS on ipu1/ipu2/ipu21
  // Supervisor tile cycles per Vertex launch: one dependent `run` bundle [D: 6].
  uint64_t vertexLaunchCycles = 6;
  // Supervisor tile cycles per MultiVertex launch and sync: basicOpSupervisorOverhead = 11.
  uint64_t multiVertexLaunchCycles = 11;
};

// The measured thread cycles of one vertex instance of a compute set on a tile.
struct VertexCycles {
  bool multiVertex = false;
  // Vertex: one entry. MultiVertex: one entry per worker (missing workers count as idle).
  std::vector<uint64_t> workerCycles;
};

struct TileComputeCycles {
  uint64_t tileCycles = 0;       // what the compute set costs this tile
  uint64_t busyThreadCycles = 0; // sum over contexts of thread cycles (excluding idle)
  uint64_t supervisorCycles = 0; // launch overhead included in tileCycles
  std::array<uint64_t, kNumWorkerContexts> contextCycles{};
};

constexpr uint64_t threadCycles(isa::Opcode op) { return isa::cycles(op); }

/// Places a tile's vertices one at a time, in order, without allocating: the executor's form of
/// scheduleTile, fed straight from the interpreter runs (inline: it runs once per vertex).
class TileScheduler {
public:
  explicit TileScheduler(const CycleModelParams &params = {})
      : params_(params), contexts_(std::clamp(params.workerContexts, 1u, kNumWorkerContexts)) {}

  /// Starts another tile (or compute set) with every context idle.
  void reset() {
    out_ = TileComputeCycles();
    busiest_ = 0;
    fresh_ = 0;
  }

  void addVertex(uint64_t cycles) {
    // Ties go to the lowest context, so the schedule is deterministic. While contexts
    // [fresh_, contexts_) are all at the minimum (the others hold more, since each got some
    // cycles), the least-loaded is context fresh_, and no scan is needed: the common case of a
    // tile with up to six vertices.
    auto ctx = out_.contextCycles.begin();
    uint64_t *least = fresh_ < contexts_ ? ctx + fresh_ : &*std::min_element(ctx, ctx + contexts_);
    *least += cycles;
    if (fresh_ < contexts_ && cycles != 0)
      ++fresh_;
    busiest_ = std::max(busiest_, *least);
    out_.supervisorCycles += params_.vertexLaunchCycles;
    out_.busyThreadCycles += cycles;
  }

  /// `count` workers' cycles of one MultiVertex (missing workers count as idle).
  void addMultiVertex(const uint64_t *workerCycles, std::size_t count) {
    auto ctx = out_.contextCycles.begin();
    const uint64_t start = busiest_;
    for (unsigned w = 0; w < contexts_; ++w) {
      ctx[w] = start + (w < count ? workerCycles[w] : 0);
      busiest_ = std::max(busiest_, ctx[w]);
    }
    fresh_ = contexts_; // the contexts now differ: scan for the least loaded
    out_.supervisorCycles += params_.multiVertexLaunchCycles;
    for (std::size_t w = 0; w < count; ++w)
      out_.busyThreadCycles += workerCycles[w];
  }

  TileComputeCycles finish() const {
    TileComputeCycles out = out_;
    out.tileCycles = uint64_t(contexts_) * busiest_ + out.supervisorCycles;
    return out;
  }

private:
  CycleModelParams params_;
  unsigned contexts_;
  TileComputeCycles out_;
  uint64_t busiest_ = 0; // the most loaded context's thread cycles
  unsigned fresh_ = 0;   // contexts [fresh_, contexts_) have had nothing since the start
};

TileComputeCycles scheduleTile(const std::vector<VertexCycles> &vertices,
                               const CycleModelParams &params = {});

} // namespace poplar::interp
