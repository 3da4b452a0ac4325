// Numpy-style broadcasting of tensor views (no copies): expand ranks, then broadcast dims of 1.
#ifndef poputil_Broadcast_hpp
#define poputil_Broadcast_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <vector>

namespace poputil {

/// Prepends dimensions of size 1 to the lower-rank tensor until both ranks are equal.
void expandToMatchRanks(poplar::Tensor &a, poplar::Tensor &b);

/// Broadcasts `a` to `shape` (numpy rules); throws poplibs_error if it cannot.
void broadcastToMatch(poplar::Tensor &a, const std::vector<std::size_t> &shape);

/// Broadcasts `a` and `b` to their common shape; throws poplibs_error if there is none.
void broadcastToMatch(poplar::Tensor &a, poplar::Tensor &b);
void broadcastToMatch(poplar::Tensor &a, poplar::Tensor &b, poplar::Tensor &c);

/// Whether broadcastToMatch(a, b) would succeed.
bool canBroadcastToMatch(const poplar::Tensor &a, const poplar::Tensor &b);

/// A new 1-D tensor of `type` with fullTensor.dim(dim) elements, each mapped to the tile that
/// holds most of the matching slice of `fullTensor` along `dim`, so that an op broadcasting it
/// along the other dimensions (a bias add) reads it mostly without exchange. `ditherMapping` is
/// accepted for compatibility and has no effect.
poplar::Tensor createBroadcastOperand(poplar::Graph &graph, const poplar::Tensor &fullTensor,
                                      const poplar::Type &type, unsigned dim,
                                      bool ditherMapping = false,
                                      const poplar::DebugNameAndId &dnai = {});

} // namespace poputil

#endif
