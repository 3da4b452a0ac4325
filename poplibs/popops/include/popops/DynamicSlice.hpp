// Slices and updates of a tensor at offsets held in device tensors and read when the program runs:
// one offset per sliced dimension (dynamicSlice, dynamicUpdate) or a list of indices into one
// dimension (multiSlice, multiUpdate, multiUpdateAdd, multiUpdateMax, multiUpdateMul, and their
// grouped forms), with tensor creators that lay tensors out so those operations need no exchange.
#ifndef popops_DynamicSlice_hpp
#define popops_DynamicSlice_hpp

#include <poplar/ArrayRef.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <vector>

namespace popops {

class SlicePlanInternal;

/// How a multi-slice or multi-update is laid out (embedding::plan). A default-constructed plan
/// is valid and means "plan it when it is used".
class SlicePlan {
public:
  SlicePlan();
  ~SlicePlan();
  SlicePlan(const SlicePlan &other);
  SlicePlan(SlicePlan &&other);
  SlicePlan &operator=(const SlicePlan &other);
  SlicePlan &operator=(SlicePlan &&other);

  friend std::ostream &operator<<(std::ostream &o, const SlicePlan &p);
  friend bool operator<(const SlicePlan &a, const SlicePlan &b) noexcept;
  friend bool operator==(const SlicePlan &a, const SlicePlan &b) noexcept;

  // Implementation
  SlicePlan(std::unique_ptr<SlicePlanInternal> internal);
  SlicePlanInternal &getImpl() const { return *internal; }

private:
  std::unique_ptr<SlicePlanInternal> internal;
};
bool operator<(const SlicePlan &a, const SlicePlan &b) noexcept;
bool operator==(const SlicePlan &a, const SlicePlan &b) noexcept;
bool operator!=(const SlicePlan &a, const SlicePlan &b) noexcept;

/// A tensor of `shape` laid out for slicing in `dims` by `sizes`: the elements outside the
/// sliced dimensions are spread over the tiles, each tile holding every position of the sliced
/// dimensions for its share (at least `minGrainSize` elements of a slice per tile).
poplar::Tensor createSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                                     const std::vector<size_t> &shape,
                                     const std::vector<size_t> &dims,
                                     const std::vector<size_t> &sizes, std::size_t minGrainSize = 0,
                                     const poplar::DebugContext &debugContext = {});

/// The same, laid out as `plan` says.
poplar::Tensor createSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                                     const std::vector<size_t> &shape,
                                     const std::vector<size_t> &dims,
                                     const std::vector<size_t> &sizes, const SlicePlan &plan,
                                     const poplar::OptionFlags &options,
                                     const poplar::DebugContext &debugContext = {});

/// A tensor of shape [numIndices, t's shape with dims resized to sizes] mapped like the slices of
/// `t`, to receive multiSlice results or to feed multiUpdate.
poplar::Tensor createSliceTensor(poplar::Graph &graph, const poplar::Tensor &t,
                                 const std::vector<size_t> &dims, const std::vector<size_t> &sizes,
                                 std::size_t numIndices,
                                 const poplar::DebugContext &debugContext = {});

/// The same for a tensor that createSliceableTensor(graph, type, shape, dims, sizes, plan,
/// options) would make.
poplar::Tensor createSliceTensor(poplar::Graph &graph, const poplar::Type &type,
                                 const std::vector<std::size_t> &shape,
                                 const std::vector<std::size_t> &dims,
                                 const std::vector<std::size_t> &sizes, std::size_t numIndices,
                                 const SlicePlan &plan, const poplar::OptionFlags &options,
                                 const poplar::DebugContext &debugContext = {});

/// An UNSIGNED_INT tensor of shape [numIndices, dims.size()] for multiSlice/multiUpdate indices.
poplar::Tensor createIndicesTensor(poplar::Graph &graph, const std::vector<std::size_t> &dims,
                                   std::size_t numIndices, const SlicePlan &plan,
                                   const poplar::OptionFlags &options,
                                   const poplar::DebugContext &debugContext = {});

/// Grouped creators: [groupSize, ...] tensors whose every group is laid out as the ungrouped
/// creator lays one out (createSliceableTensor, createSliceTensor, createIndicesTensor).
poplar::Tensor createGroupedSliceableTensor(
    poplar::Graph &graph, const poplar::Type &type, const std::size_t groupSize,
    const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
    const std::vector<std::size_t> &sizes, const SlicePlan &plan,
    const poplar::OptionFlags &options, const poplar::DebugContext &debugContext = {});

/// [groupSize, numIndices, shape with dims resized to sizes].
poplar::Tensor createGroupedSliceTensor(
    poplar::Graph &graph, const poplar::Type &type, const std::size_t groupSize,
    const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
    const std::vector<std::size_t> &sizes, const std::size_t numIndices, const SlicePlan &plan,
    const poplar::OptionFlags &options, const poplar::DebugContext &debugContext = {});

/// [groupSize, numIndices, dims.size()] UNSIGNED_INT.
poplar::Tensor createGroupedIndicesTensor(poplar::Graph &graph, const std::size_t groupSize,
                                          const std::vector<std::size_t> &dims,
                                          const std::size_t numIndices, const SlicePlan &plan,
                                          const poplar::OptionFlags &options,
                                          const poplar::DebugContext &debugContext = {});

/// A new tensor of s's shape with dimension dims[i] numSlices[i] times as large, each of whose
/// slices of s's shape in those dimensions is laid out as `s` is (tiles and contiguous regions).
poplar::Tensor createSliceableTensorFromSlice(poplar::Graph &graph, const poplar::Tensor &s,
                                              const std::vector<std::size_t> &dims,
                                              const std::vector<std::size_t> &numSlices,
                                              const poplar::DebugContext &debugContext = {});

/// The tile mapping of the slice of `t` of `sizes` in `dims` at offset 0: where dynamicSlice lays
/// its result out when t is laid out for slicing (its rows mapped alike).
std::vector<std::vector<poplar::Interval>> getSliceMapping(poplar::Graph &graph,
                                                           const poplar::Tensor &t,
                                                           const std::vector<std::size_t> &dims,
                                                           const std::vector<std::size_t> &sizes);

/// The sub-tensor of `t` that starts at `offset[i]` in dimension `dims[i]` and has `sizes[i]`
/// elements there (full size elsewhere). `offset` is a 1-D UNSIGNED_INT (or INT) tensor with
/// one element per entry of `dims`, read when the program runs; a slice that runs past the end
/// of a dimension wraps round to its start.
///
/// Options: `remapOutOfBoundIndices` (false): an offset beyond the dimension means 0;
/// `paddingIndexUsed` (false): an offset equal to the dimension's size gives zeros. Any other
/// offset beyond the dimension also gives zeros.
poplar::Tensor dynamicSlice(poplar::Graph &graph, const poplar::Tensor &t,
                            const poplar::Tensor &offset, const std::vector<std::size_t> &dims,
                            const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});

/// dynamicSlice into an existing tensor `output` (of the slice's shape).
void dynamicSliceWithOutput(poplar::Graph &graph, const poplar::Tensor &output,
                            const poplar::Tensor &t, const poplar::Tensor &offset,
                            const std::vector<std::size_t> &dims,
                            const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});

/// Writes `s` into `t` at `offset` (as dynamicSlice reads it); an offset that selects no
/// position (beyond the dimension, unless remapped) changes nothing.
void dynamicUpdate(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                   const poplar::Tensor &offset, const std::vector<std::size_t> &dims,
                   const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {});

/// Slices of `t` at each row of `offsets` ([N, 1], UNSIGNED_INT or INT) in the one dimension
/// dims[0] (sizes[0] == 1): the result has shape [N, t's shape with dims[0] of size 1]. An index
/// beyond the dimension gives a slice of zeros (or of index 0 with remapOutOfBoundIndices).
poplar::Tensor multiSlice(poplar::Graph &graph, const poplar::Tensor &t,
                          const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
                          const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                          const SlicePlan &plan, const poplar::OptionFlags &options,
                          const poplar::DebugContext &debugContext = {});

/// multiSlice at indices known when the graph is built.
poplar::Tensor multiSlice(poplar::Graph &graph, const poplar::Tensor &t,
                          poplar::ArrayRef<unsigned> offsets, std::size_t dim,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &optionFlags = {});

/// t[offsets[i]] = s[i] for each i in order (a later duplicate index wins); indices beyond the
/// dimension are ignored.
void multiUpdate(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                 const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
                 const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                 const SlicePlan &plan, const poplar::OptionFlags &options,
                 const poplar::DebugContext &debugContext = {});

/// t[offsets[i]] += scale * s[i] for each i; `scale` is a one-element tensor of t's type (FLOAT
/// or HALF for HALF data).
void multiUpdateAdd(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                    const poplar::Tensor &offsets, const poplar::Tensor &scale,
                    const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                    poplar::program::Sequence &prog, const SlicePlan &plan,
                    const poplar::OptionFlags &options,
                    const poplar::DebugContext &debugContext = {});

/// multiUpdateAdd at indices known when the graph is built.
void multiUpdateAdd(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                    poplar::ArrayRef<unsigned> offsets, const poplar::Tensor &scale,
                    std::size_t dim, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &optionFlags = {});

/// t[offsets[i]] = max(t[offsets[i]], s[i]) for each i.
void multiUpdateMax(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                    const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                    const SlicePlan &plan, const poplar::OptionFlags &options,
                    const poplar::DebugContext &debugContext = {});

/// t[offsets[i]] *= s[i] for each index in turn (t and s of one type: float, half, int or
/// unsigned int); indices that select no row are skipped.
void multiUpdateMul(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                    const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                    const SlicePlan &plan, const poplar::OptionFlags &options,
                    const poplar::DebugContext &debugContext = {});

/// The grouped forms: t [groupSize, ...], offsets [groupSize, numIndices, 1] and s (or the
/// result) [groupSize, numIndices, ...]; group g's offsets slice or update group g of t. `dims`
/// are dimensions of one group. All groups run in one compute set.
poplar::Tensor groupedMultiSlice(poplar::Graph &graph, const poplar::Tensor &t,
                                 const poplar::Tensor &offsets,
                                 const std::vector<std::size_t> &dims,
                                 const std::vector<std::size_t> &sizes,
                                 poplar::program::Sequence &prog, const SlicePlan &plan,
                                 const poplar::OptionFlags &options,
                                 const poplar::DebugContext &debugContext = {});

void groupedMultiUpdate(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                        const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
                        const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                        const SlicePlan &plan, const poplar::OptionFlags &options,
                        const poplar::DebugContext &debugContext = {});

void groupedMultiUpdateAdd(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                           const poplar::Tensor &offsets, const poplar::Tensor &scale,
                           const std::vector<std::size_t> &dims,
                           const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                           const SlicePlan &plan, const poplar::OptionFlags &options,
                           const poplar::DebugContext &debugContext = {});

void groupedMultiUpdateMax(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                           const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
                           const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                           const SlicePlan &plan, const poplar::OptionFlags &options,
                           const poplar::DebugContext &debugContext = {});

void groupedMultiUpdateMul(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                           const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
                           const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                           const SlicePlan &plan, const poplar::OptionFlags &options,
                           const poplar::DebugContext &debugContext = {});

namespace embedding {

/// A plan for lookups into (multiSlice) and updates of (multiUpdate*) an embedding matrix of
/// numEntries rows of outputSize elements. Options: usedForSlice, usedForUpdate (true),
/// operationForUpdate (none, add, max; add), availableMemoryProportion (0.6),
/// indicesDistribution (uniform, onePoint), indicesAreSorted, validateIndices (false),
/// partialType (half, float), and the slicing options remapOutOfBoundIndices, paddingIndexUsed.
SlicePlan plan(const poplar::Graph &graph, const poplar::Type &dataType,
               const std::size_t numEntries, const std::size_t outputSize,
               const std::vector<std::size_t> &numLookups, const poplar::OptionFlags &options);

/// The plan of grouped ops over groupSize groups.
SlicePlan plan(const poplar::Graph &graph, const poplar::Type &dataType,
               const std::size_t groupSize, const std::size_t numEntries,
               const std::size_t outputSize, const std::vector<std::size_t> &numLookups,
               const poplar::OptionFlags &options);

} // namespace embedding

} // namespace popops

#endif
