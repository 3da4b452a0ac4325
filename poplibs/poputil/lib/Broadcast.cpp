// Broadcasting: the common shape of two shapes and the views that reach it.
#include <poputil/Broadcast.hpp>
#include <poputil/exceptions.hpp>

#include "support/Raise.hpp"

#include <algorithm>

namespace poputil {

using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

/// The numpy broadcast of two shapes, or false if a dimension pair is neither equal nor 1.
bool commonShape(std::vector<std::size_t> a, std::vector<std::size_t> b,
                 std::vector<std::size_t> &out) {
  std::size_t rank = std::max(a.size(), b.size());
  a.insert(a.begin(), rank - a.size(), 1);
  b.insert(b.begin(), rank - b.size(), 1);
  out.resize(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    if (a[d] != b[d] && a[d] != 1 && b[d] != 1)
      return false;
    out[d] = a[d] == 1 ? b[d] : a[d];
  }
  return true;
}

} // namespace

void expandToMatchRanks(poplar::Tensor &a, poplar::Tensor &b) {
  while (a.rank() < b.rank())
    a = a.expand({0});
  while (b.rank() < a.rank())
    b = b.expand({0});
}

void broadcastToMatch(poplar::Tensor &a, const std::vector<std::size_t> &shape) {
  if (a.rank() > shape.size())
    raise<poplibs_error>("broadcastToMatch: cannot broadcast shape ", shapeText(a.shape()),
                         " to the lower-rank shape ", shapeText(shape));
  while (a.rank() < shape.size())
    a = a.expand({0});
  for (unsigned d = 0; d < shape.size(); ++d) {
    if (a.dim(d) == shape[d])
      continue;
    if (a.dim(d) != 1)
      raise<poplibs_error>("broadcastToMatch: cannot broadcast shape ", shapeText(a.shape()),
                           " to ", shapeText(shape), " (dimension ", d, " is ", a.dim(d),
                           ", not 1 or ", shape[d], ")");
    a = a.broadcast(unsigned(shape[d]), d);
  }
}

void broadcastToMatch(poplar::Tensor &a, poplar::Tensor &b) {
  std::vector<std::size_t> shape;
  if (!commonShape(a.shape(), b.shape(), shape))
    raise<poplibs_error>("broadcastToMatch: shapes ", shapeText(a.shape()), " and ",
                         shapeText(b.shape()), " do not broadcast to a common shape");
  broadcastToMatch(a, shape);
  broadcastToMatch(b, shape);
}

void broadcastToMatch(poplar::Tensor &a, poplar::Tensor &b, poplar::Tensor &c) {
  std::vector<std::size_t> ab, abc;
  if (!commonShape(a.shape(), b.shape(), ab) || !commonShape(ab, c.shape(), abc))
    raise<poplibs_error>("broadcastToMatch: shapes ", shapeText(a.shape()), ", ",
                         shapeText(b.shape()), " and ", shapeText(c.shape()),
                         " do not broadcast to a common shape");
  broadcastToMatch(a, abc);
  broadcastToMatch(b, abc);
  broadcastToMatch(c, abc);
}

bool canBroadcastToMatch(const poplar::Tensor &a, const poplar::Tensor &b) {
  std::vector<std::size_t> shape;
  return commonShape(a.shape(), b.shape(), shape);
}

poplar::Tensor createBroadcastOperand(poplar::Graph &graph, const poplar::Tensor &fullTensor,
                                      const poplar::Type &type, unsigned dim, bool,
                                      const poplar::DebugNameAndId &dnai) {
  if (dim >= fullTensor.rank())
    raise<poplibs_error>("createBroadcastOperand: dimension ", dim, " of a rank-",
                         fullTensor.rank(), " tensor ", shapeText(fullTensor.shape()));
  std::size_t n = fullTensor.dim(dim);
  poplar::Tensor out = graph.addVariable(type, {n}, {dnai, "broadcastOperand"});
  for (std::size_t i = 0; i < n; ++i) {
    auto mapping = graph.getTileMapping(fullTensor.slice(i, i + 1, dim));
    unsigned best = 0;
    std::size_t bestElements = 0;
    for (unsigned tile = 0; tile < mapping.size(); ++tile) {
      std::size_t elements = 0;
      for (const auto &interval : mapping[tile])
        elements += interval.size();
      if (elements > bestElements) {
        best = tile;
        bestElements = elements;
      }
    }
    graph.setTileMapping(out[i], best);
  }
  return out;
}

} // namespace poputil
