// Schedules a compute set's vertices over a tile's worker contexts (rules in CycleModel.hpp).
#include "interp/CycleModel.hpp"

#include <algorithm>

namespace poplar::interp {

TileComputeCycles scheduleTile(const std::vector<VertexCycles> &vertices,
                               const CycleModelParams &params) {
  TileComputeCycles out;
  const unsigned n = std::clamp(params.workerContexts, 1u, kNumWorkerContexts);
  auto ctx = out.contextCycles.begin();
  for (const VertexCycles &v : vertices) {
    if (v.multiVertex) {
      const uint64_t start = *std::max_element(ctx, ctx + n);
      for (unsigned w = 0; w < n; ++w)
        ctx[w] = start + (w < v.workerCycles.size() ? v.workerCycles[w] : 0);
      out.supervisorCycles += params.multiVertexLaunchCycles;
    } else {
      // Ties go to the lowest context, so the schedule is deterministic.
      auto least = std::min_element(ctx, ctx + n);
      *least += v.workerCycles.empty() ? 0 : v.workerCycles[0];
      out.supervisorCycles += params.vertexLaunchCycles;
    }
    for (uint64_t c : v.workerCycles)
      out.busyThreadCycles += c;
  }
  const uint64_t busiest = *std::max_element(ctx, ctx + n);
  out.tileCycles = uint64_t(n) * busiest + out.supervisorCycles;
  return out;
}

} // namespace poplar::interp
