// Host reference for popops' slicing ops: dynamic slices and updates at one offset per
// dimension, multi-slices and multi-updates at a list of indices, on row-major host values.
#pragma once

#include <poplar/Type.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace popsdk::reference {

/// How an index beyond a dimension of size n is read: remapOutOfBoundIndices makes it 0;
/// paddingIndexUsed makes n itself a padding index (zeros, no update); any other gives zeros
/// for a slice and no update.
struct IndexRules {
  bool remap = false;
  bool padding = false;
};

/// The position `index` selects in a dimension of size n, or -1 for none.
long long resolveIndex(std::int64_t index, std::size_t n, IndexRules rules);

/// dynamicSlice: dimension dims[i] sliced to sizes[i] elements from offsets[i], wrapping round.
std::vector<double> dynamicSlice(const std::vector<double> &t,
                                 const std::vector<std::size_t> &shape,
                                 const std::vector<std::int64_t> &offsets,
                                 const std::vector<std::size_t> &dims,
                                 const std::vector<std::size_t> &sizes, IndexRules rules = {});

/// dynamicUpdate: `t` with `s` written where dynamicSlice would read it.
std::vector<double> dynamicUpdate(std::vector<double> t, const std::vector<std::size_t> &shape,
                                  const std::vector<double> &s,
                                  const std::vector<std::int64_t> &offsets,
                                  const std::vector<std::size_t> &dims,
                                  const std::vector<std::size_t> &sizes, IndexRules rules = {});

/// multiSlice: [indices, shape with dim of size 1], zeros for an index that selects nothing.
std::vector<double> multiSlice(const std::vector<double> &t, const std::vector<std::size_t> &shape,
                               const std::vector<std::int64_t> &indices, std::size_t dim,
                               IndexRules rules = {});

enum class UpdateOp { Copy, Add, Max, Mul };

/// multiUpdate / multiUpdateAdd (t += scale * s, each sum rounded to `type`) / multiUpdateMax /
/// multiUpdateMul (each product rounded to `type`), applied index by index in order.
std::vector<double> multiUpdate(std::vector<double> t, const std::vector<std::size_t> &shape,
                                const std::vector<double> &s,
                                const std::vector<std::int64_t> &indices, std::size_t dim,
                                UpdateOp op, double scale, poplar::Type type,
                                IndexRules rules = {});

/// gather along `axis`: [shape[:axis], indices' shape, shape[axis+1:]] (indices flattened in
/// row-major order), zeros for an index beyond the axis.
std::vector<double> gather(const std::vector<double> &t, const std::vector<std::size_t> &shape,
                           const std::vector<std::int64_t> &indices, std::size_t axis);

/// sequenceSlice: `out` ([outRows, columns]) with rows [outOffset[k], + n[k]) copied from rows
/// [inOffset[k], + n[k]) of `in` for each k, rows beyond either tensor skipped; with zeroUnused
/// the rows no entry writes are zeros.
std::vector<double> sequenceSlice(const std::vector<double> &in, std::vector<double> out,
                                  std::size_t columns, const std::vector<std::uint32_t> &n,
                                  const std::vector<std::uint32_t> &inOffset,
                                  const std::vector<std::uint32_t> &outOffset, bool zeroUnused);

/// XLA gather (popops::gather's general form) of `t` (row-major `shape`) at `indices` (row-major
/// `indexShape`): each window starts at its index vector's components in the startIndexMap
/// dimensions, clamped into [0, dim - sliceSize]; returns the values and sets `outShape`.
std::vector<double>
gatherXla(const std::vector<double> &t, const std::vector<std::size_t> &shape,
          const std::vector<std::int64_t> &indices, const std::vector<std::size_t> &indexShape,
          std::size_t indexVectorDim, const std::vector<std::size_t> &offsetDims,
          const std::vector<std::size_t> &sliceSizes,
          const std::vector<std::size_t> &collapsedSliceDims,
          const std::vector<unsigned> &startIndexMap, std::vector<std::size_t> &outShape);

/// XLA scatter (popops::scatter): each window of `updates` combined into `operand` (row-major
/// `shape`) at its scatter index, windows in scatter-index order; a window whose start is beyond
/// a dimension is skipped, one that runs past the end wraps round. `add` adds instead of writing.
std::vector<double> scatter(std::vector<double> operand, const std::vector<std::size_t> &shape,
                            const std::vector<std::int64_t> &indices,
                            const std::vector<std::size_t> &indexShape,
                            const std::vector<double> &updates,
                            const std::vector<std::size_t> &updateShape, std::size_t indexVectorDim,
                            const std::vector<unsigned> &updateWindowDims,
                            const std::vector<std::size_t> &insertWindowDims,
                            const std::vector<unsigned> &scatterDimsToOperandDims, bool add);

} // namespace popsdk::reference
