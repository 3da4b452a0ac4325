// popnn::logSoftmax: log(softmax(t)) over the innermost dimension, computed stably.
#ifndef popnn_LogSoftmax_hpp
#define popnn_LogSoftmax_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popnn {

/// t - max - log(sum(exp(t - max))) along the innermost dimension, in a new tensor.
poplar::Tensor logSoftmax(poplar::Graph &graph, poplar::Tensor t, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {});

/// The same, written into `t`.
void logSoftmaxInPlace(poplar::Graph &graph, poplar::Tensor t, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {});

} // namespace popnn

#endif // popnn_LogSoftmax_hpp
