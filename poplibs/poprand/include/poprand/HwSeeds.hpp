// The tiles' random generator state as a tensor, to save and restore it around other random
// work. Poplar 3.x offers these as poplar::getHwSeeds/setHwSeeds (poplar/RandomSeed.hpp) on the
// hardware's registers; here the state is the per-tile tensor poprand keeps for each graph.
#ifndef poprand_HwSeeds_hpp
#define poprand_HwSeeds_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace poprand {

/// A copy of the generator state of every tile of `graph`: UNSIGNED_INT of shape
/// {tiles, 6 workers, 4}, row t on tile t.
poplar::Tensor getHwSeeds(poplar::Graph &graph, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {});

/// Sets the generator state of every tile of `graph` from a getHwSeeds tensor.
void setHwSeeds(poplar::Graph &graph, const poplar::Tensor &hwSeeds,
                poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

} // namespace poprand

#endif
