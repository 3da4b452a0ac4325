// getHwSeeds/setHwSeeds: copies of the graph's generator state tensor.
#include <poprand/HwSeeds.hpp>

#include "TileState.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

#include "support/Raise.hpp"

namespace poprand {

using namespace poplar;

Tensor getHwSeeds(Graph &graph, program::Sequence &prog, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, {}, "getHwSeeds");
  Tensor state = internal::tileState(graph);
  Tensor copy = graph.clone(state, {di, "hwSeeds"});
  prog.add(program::Copy(state, copy, false, {di}));
  di.addOutput(copy);
  return copy;
}

void setHwSeeds(Graph &graph, const Tensor &hwSeeds, program::Sequence &prog,
                const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(hwSeeds), "setHwSeeds");
  Tensor state = internal::tileState(graph);
  if (!hwSeeds.valid() || hwSeeds.elementType() != UNSIGNED_INT || hwSeeds.shape() != state.shape())
    popsdk::support::raise<poputil::poplibs_error>(
        "poprand::setHwSeeds: hwSeeds must be unsigned int ", state.shapeToString(), ", not ",
        hwSeeds.valid() ? hwSeeds.elementType().toString() + " " + hwSeeds.shapeToString()
                        : std::string("invalid"));
  prog.add(program::Copy(hwSeeds, state, false, {di}));
}

} // namespace poprand
