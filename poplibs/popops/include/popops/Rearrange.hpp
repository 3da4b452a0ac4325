// Rearranging tensors on tiles: transposing many small matrices on the tiles that hold them,
// and regrouping a tensor (moving which dimension is contiguous in memory) through such
// transposes.
#ifndef popops_Rearrange_hpp
#define popops_Rearrange_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <poputil/VarStructure.hpp>

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace popops {
namespace rearrange {

/// Whether `numTranspositions` matrices of numRows x numColumns elements of `type` can use the
/// fast transpose vertices (Transpose1D, Transpose1DSingleWorker): 2-byte types, sides multiples
/// of 4, within the machine's repeat-count and stride limits.
bool canUseFastTranspose(const poplar::Target &target, const poplar::Type &type, unsigned numRows,
                         unsigned numColumns, unsigned numTranspositions);

/// Adds to `cs` the vertices that transpose a set of rows x cols matrices of `dType`.
/// mapping[tile] lists the indices of the matrices transposed on that tile; getInOut(index)
/// returns that matrix's input and output, each flattened to one dimension. Each output is
/// mapped to the tile that transposes it.
void addTransposeVertices(
    poplar::Graph &graph, const poplar::ComputeSet &cs, const poplar::Type &dType, unsigned rows,
    unsigned cols, const poplar::Graph::TileToTensorMapping &mapping,
    std::function<std::pair<const poplar::Tensor, const poplar::Tensor>(size_t)> getInOut,
    const poplar::DebugContext &debugContext = {});

/// A new tensor holding `in` with its two innermost dimensions swapped, transposed by vertices
/// in `cs`, each matrix on the tile that holds its first element. The elements are read in the
/// tensor's order, which is assumed to be their order in memory.
poplar::Tensor partialTranspose(poplar::Graph &graph, const poplar::Tensor &in,
                                const poplar::ComputeSet &cs,
                                const poplar::DebugContext &debugContext = {});

/// The smallest grouping the fast transposes regroup between for `type`: 4 for 2-byte types, 2
/// for 4-byte ones, else 1.
unsigned getMinimumRegroupGrainSize(const poplar::Type &type);

/// The contents of `t`, currently grouped `from`, in a tensor grouped `to`: copies into a
/// transposable layout are added to `copies` and the transposes to `transposeCS` (which the
/// caller executes after the copies). A tensor of rank 0 or 1 is returned unchanged.
poplar::Tensor regroupTensor(poplar::Graph &graph, const poplar::Tensor &t,
                             poplar::program::Sequence &copies,
                             const poplar::ComputeSet &transposeCS,
                             const poputil::GroupingInfo &from, const poputil::GroupingInfo &to,
                             const poplar::DebugContext &debugContext = {});

/// As above, the copies appended to a vector of Copy programs.
poplar::Tensor regroupTensor(poplar::Graph &graph, const poplar::Tensor &t,
                             std::vector<poplar::program::Copy> &copies,
                             const poplar::ComputeSet &transposeCS,
                             const poputil::GroupingInfo &from, const poputil::GroupingInfo &to,
                             const poplar::DebugContext &debugContext = {});

/// Regroups `t` to `to` from its detected innermost grouping, adding everything to `prog`; `t`
/// unchanged when it has rank 0 or 1, `to` is not a valid grouping of it, its innermost grouping
/// already is of `to`'s dimension, or that grouping is not a multiple of the grain size.
poplar::Tensor regroupIfPossible(poplar::Graph &graph, const poplar::Tensor &t,
                                 poplar::program::Sequence &prog, const poputil::GroupingInfo &to,
                                 const poplar::DebugContext &debugContext = {});

/// `in` regrouped to the innermost grouping of `ref` (same shape) when the two groupings are of
/// different dimensions and both multiples of the grain size; else `in` itself.
poplar::Tensor regroupIfBeneficial(poplar::Graph &graph, const poplar::Tensor &in,
                                   const poplar::Tensor &ref, poplar::program::Sequence &prog,
                                   const poplar::DebugContext &debugContext = {});

/// As above, the copies appended to `copies` and the transposes added to `transposeCS`.
poplar::Tensor regroupIfBeneficial(poplar::Graph &graph, const poplar::Tensor &in,
                                   const poplar::Tensor &ref,
                                   std::vector<poplar::program::Copy> &copies,
                                   poplar::ComputeSet transposeCS,
                                   const poplar::DebugContext &debugContext = {});

/// `in` regrouped so that its innermost dimension is grouped by `preferredGrouping` (which must
/// divide it), when its own innermost grouping is of another dimension and both are multiples of
/// the grain size; else `in` itself.
poplar::Tensor regroupIfBeneficial(poplar::Graph &graph, const poplar::Tensor &in,
                                   std::size_t preferredGrouping, poplar::program::Sequence &prog,
                                   const poplar::DebugContext &debugContext = {});

} // namespace rearrange
} // namespace popops

#endif // popops_Rearrange_hpp
