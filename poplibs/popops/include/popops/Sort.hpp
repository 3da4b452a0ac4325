// Sorting along one dimension of a tensor, alone or as the key of a value tensor.
#ifndef popops_Sort_hpp
#define popops_Sort_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A permutation of `t` with every 1-D slice along `dim` in ascending order (stable). Throws
/// poputil::poplibs_error if dim is not a dimension of t.
poplar::Tensor sort(poplar::Graph &graph, const poplar::Tensor &t, unsigned dim,
                    poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// Sorts `t` in place along `dim`.
void sortInPlace(poplar::Graph &graph, const poplar::Tensor &t, unsigned dim,
                 poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// `v` permuted as sorting `k` (the same shape) along `dim` permutes it; equal keys keep their
/// order. The result for aliasing k and v is undefined.
poplar::Tensor sortKeyValue(poplar::Graph &graph, const poplar::Tensor &k, const poplar::Tensor &v,
                            unsigned dim, poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {});

/// Sorts `k` along `dim` in place and permutes `v` with it.
void sortKeyValueInPlace(poplar::Graph &graph, const poplar::Tensor &k, const poplar::Tensor &v,
                         unsigned dim, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif
