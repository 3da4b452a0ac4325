// One-hot encoding of run-time indices, and integer ranges (iota).
#ifndef popops_Encoding_hpp
#define popops_Encoding_hpp

#include "EncodingConstants.hpp"

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// Row i of `encoded` ([N, C]: FLOAT, HALF, INT or UNSIGNED_INT) becomes 1 at column indices[i]
/// and 0 elsewhere. `indices` is 1-D of N UNSIGNED_INT or INT; an index outside [0, C), such as
/// MASKED_LABEL_CODE, gives a row of zeros.
void encodeOneHot(poplar::Graph &graph, const poplar::Tensor &indices,
                  const poplar::Tensor &encoded, poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {});

/// The same with `on` for the hot element and `off` for the others (one-element tensors of
/// encoded's type).
void encodeOneHot(poplar::Graph &graph, const poplar::Tensor &indices,
                  const poplar::Tensor &encoded, poplar::program::Sequence &prog,
                  const poplar::Tensor &on, const poplar::Tensor &off,
                  const poplar::DebugContext &debugContext = {});

/// t[i] = startInteger + i for the 1-D, mapped UNSIGNED_INT tensor `t`.
void iota(poplar::Graph &graph, const poplar::Tensor &t, unsigned startInteger,
          poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// t[i] = startInteger + i for the 1-D, mapped INT tensor `t`.
void iota(poplar::Graph &graph, const poplar::Tensor &t, int startInteger,
          poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif
