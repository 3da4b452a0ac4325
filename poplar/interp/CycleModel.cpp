// Schedules a compute set's vertices over a tile's worker contexts (rules in CycleModel.hpp).
#include "interp/CycleModel.hpp"

namespace poplar::interp {

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
