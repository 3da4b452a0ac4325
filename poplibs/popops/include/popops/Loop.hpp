// Counted loops of programs: a fixed trip count with a device counter the body can read
// (countedLoop), or a count that runs until it equals a device tensor (countedForLoop).
#ifndef popops_Loop_hpp
#define popops_Loop_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
// PopLibs' Loop.hpp brings in the element-wise ops, which loop bodies use.
#include <popops/ElementWise.hpp>

#include <cstddef>
#include <functional>

namespace popops {

/// Makes a loop body from the loop's counter (a one-element UNSIGNED_INT tensor).
using CountedLoopBodyType = std::function<poplar::program::Program(const poplar::Tensor &)>;

/// `for (i = begin; i < end; i += step) body(i)`: begin < end and step > 0, else
/// poputil::poplibs_error. The counter is a new variable on tile 0.
poplar::program::Sequence countedLoop(poplar::Graph &graph, std::size_t begin, std::size_t end,
                                      std::size_t step, const CountedLoopBodyType &body,
                                      const poplar::DebugContext &debugContext = {});

/// `for (i = 0; i < count; ++i) body(i)`.
poplar::program::Sequence countedLoop(poplar::Graph &graph, std::size_t count,
                                      const CountedLoopBodyType &body,
                                      const poplar::DebugContext &debugContext = {});

/// Adds to `prog` a compute set on `tile` that steps `count` by countStep and returns a new
/// UNSIGNED_INT scalar set to whether count differs from countLimit afterwards.
poplar::Tensor addForLoopCounterVertex(poplar::Graph &graph, const poplar::Tensor &count,
                                       const poplar::Tensor &countLimit, int countStep,
                                       unsigned tile, poplar::program::Sequence &prog,
                                       const poplar::DebugContext &di);

/// `for (count = initialCount; count != countLimit; count += countStep) body`, the limit read on
/// the device each pass. `count` and `countLimit` are one-element tensors of one type, INT or
/// UNSIGNED_INT; `count` is set by the loop and the body may read it.
poplar::program::Sequence countedForLoop(poplar::Graph &graph, const poplar::Tensor &count,
                                         int initialCount, const poplar::Tensor &countLimit,
                                         int countStep, const poplar::program::Program &body,
                                         const poplar::DebugContext &debugContext = {});

/// The same with a counter created on tile 0.
poplar::program::Sequence countedForLoop(poplar::Graph &graph, int initialCount,
                                         const poplar::Tensor &countLimit, int countStep,
                                         const poplar::program::Program &body,
                                         const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif
