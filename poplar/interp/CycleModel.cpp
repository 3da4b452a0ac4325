// Schedules a compute set's vertices over a tile's worker contexts (rules in CycleModel.hpp).
#include "interp/CycleModel.hpp"

#include <algorithm>

namespace poplar::interp {

TileScheduler::TileScheduler(const CycleModelParams &params)
    : params_(params), contexts_(std::clamp(params.workerContexts, 1u, kNumWorkerContexts)) {}

void TileScheduler::addVertex(uint64_t cycles) {
  // Ties go to the lowest context, so the schedule is deterministic.
  auto ctx = out_.contextCycles.begin();
  *std::min_element(ctx, ctx + contexts_) += cycles;
  out_.supervisorCycles += params_.vertexLaunchCycles;
  out_.busyThreadCycles += cycles;
}

void TileScheduler::addMultiVertex(const uint64_t *workerCycles, std::size_t count) {
  auto ctx = out_.contextCycles.begin();
  const uint64_t start = *std::max_element(ctx, ctx + contexts_);
  for (unsigned w = 0; w < contexts_; ++w)
    ctx[w] = start + (w < count ? workerCycles[w] : 0);
  out_.supervisorCycles += params_.multiVertexLaunchCycles;
  for (std::size_t w = 0; w < count; ++w)
    out_.busyThreadCycles += workerCycles[w];
}

TileComputeCycles TileScheduler::finish() const {
  TileComputeCycles out = out_;
  auto ctx = out.contextCycles.begin();
  out.tileCycles =
      uint64_t(contexts_) * *std::max_element(ctx, ctx + contexts_) + out.supervisorCycles;
  return out;
}

TileComputeCycles scheduleTile(const std::vector<VertexCycles> &vertices,
                               const CycleModelParams &params) {
  TileScheduler tile(params);
  for (const VertexCycles &v : vertices) {
    if (v.multiVertex)
      tile.addMultiVertex(v.workerCycles.data(), v.workerCycles.size());
    else
      tile.addVertex(v.workerCycles.empty() ? 0 : v.workerCycles[0]);
  }
  return tile.finish();
}

} // namespace poplar::interp
