// Groupings and partitions of tensors: which dimensions are laid out in contiguous groups of
// elements, and variables whose partitions are each one contiguous region.
#ifndef poputil_VarStructure_hpp
#define poputil_VarStructure_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace poputil {

/// The size of the groups of consecutive elements of the innermost dimension that lie
/// contiguously on one tile (1 when there are none, or when the tensor has no elements).
/// Throws poplibs_error for a scalar.
unsigned detectInnermostGrouping(const poplar::Graph &graph, const poplar::Tensor &t);

/// A grouping: (dimension, number of consecutive elements of that dimension grouped).
using GroupingInfo = std::pair<unsigned, unsigned>;

/// Every grouping of `t`, innermost first: the dimension whose elements are grouped
/// contiguously, then, inside those groups, the next one, and so on (a dimension may appear
/// more than once). Empty when no dimension is grouped. Throws poplibs_error for a scalar.
std::vector<GroupingInfo> detectDimGroupings(const poplar::Graph &graph, const poplar::Tensor &t);

/// A tensor of `shape` (no tile mapping) such that, cutting each dimension d into
/// nPartitions[d] partitions of ceil(shape[d] / nPartitions[d]) elements (the last ones shorter
/// or empty), each partition is one contiguous region. Throws poplibs_error when shape and
/// nPartitions differ in length or a partition count is 0.
poplar::Tensor createPartitionableTensor(poplar::Graph &graph, const poplar::Type &type,
                                         const std::vector<std::size_t> &shape,
                                         const std::vector<std::size_t> &nPartitions,
                                         const poplar::DebugContext &debugContext = {});

/// Calls f(indices, slice) for every partition of `t` (partitioned as createPartitionableTensor
/// does), the first dimension's index varying fastest. Throws poplibs_error when the rank of `t`
/// and the length of nPartitions differ or a partition count is 0.
void iterateTensorPartitions(
    const poplar::Tensor &t, const std::vector<std::size_t> &nPartitions,
    const std::function<void(const std::vector<std::size_t> &i, const poplar::Tensor &s)> &f);

} // namespace poputil

#endif // poputil_VarStructure_hpp
