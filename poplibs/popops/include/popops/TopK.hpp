// The k largest (or smallest) elements of each innermost row of a tensor.
#ifndef popops_TopK_hpp
#define popops_TopK_hpp

#include <popops/SortOrder.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <iosfwd>
#include <utility>
#include <vector>

namespace popops {

struct TopKParams {
  /// How many elements to return from each row (at most the innermost dimension).
  unsigned k;
  /// The k largest if true, else the k smallest.
  bool largest;
  /// The order of the k results.
  SortOrder sortOrder;
  /// With a sortOrder, equal values keep the order they have in the input.
  bool stableSort;

  TopKParams(unsigned k, bool largest, SortOrder sortOrder, bool stableSort = false) noexcept;
};

std::ostream &operator<<(std::ostream &os, const TopKParams &p);

/// A new tensor of `shape` laid out for topK with `params`.
poplar::Tensor createTopKInput(poplar::Graph &graph, const poplar::Type &type,
                               const std::vector<std::size_t> &shape, const TopKParams &params,
                               const poplar::DebugContext &debugContext = {});

/// The top k of each innermost row of `t`: shape t's with the innermost dimension k.
poplar::Tensor topK(poplar::Graph &graph, poplar::program::Sequence &prog, const poplar::Tensor &t,
                    const TopKParams &params, const poplar::DebugContext &debugContext = {});

/// The top k keys of each innermost row of `keys`, and the elements of `values` (same shape) that
/// came with them.
std::pair<poplar::Tensor, poplar::Tensor>
topKKeyValue(poplar::Graph &graph, poplar::program::Sequence &prog, const poplar::Tensor &keys,
             const poplar::Tensor &values, const TopKParams &params,
             const poplar::DebugContext &debugContext = {});

/// The top k of each innermost row of `t` and their positions in the row (UNSIGNED_INT).
std::pair<poplar::Tensor, poplar::Tensor>
topKWithPermutation(poplar::Graph &graph, poplar::program::Sequence &prog, const poplar::Tensor &t,
                    const TopKParams &params, const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif
