// Numpy-style broadcasting of tensor views (no copies): expand ranks, then broadcast dims of 1.
#ifndef poputil_Broadcast_hpp
#define poputil_Broadcast_hpp

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

} // namespace poputil

#endif
