// Where slicing works: a tensor being sliced is viewed as [rows, columns] (the sliced dimension
// first, every other element a column), and each tile works on a set of columns for every row.
// Shared by the slicing ops, the slice-tensor creators, gather and the sort ops' layouts.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <vector>

namespace popops::internal {

/// The columns one tile works on, in increasing order.
struct ColumnGroup {
  unsigned tile;
  std::vector<poplar::Interval> columns;
};

/// `columns` columns spread evenly over the graph's tiles in grains of the type's vector width,
/// at least `minGrainSize` to a tile.
std::vector<ColumnGroup> balancedColumns(const poplar::Graph &graph, std::size_t columns,
                                         const poplar::Type &type, std::size_t minGrainSize = 0);

/// The column groups to slice `t2d` ([rows, columns]) by: its own mapping when its first and last
/// rows are mapped alike (each tile then slices the data it holds), else balancedColumns.
std::vector<ColumnGroup> sliceColumns(const poplar::Graph &graph, const poplar::Tensor &t2d);

/// A new [rows, columns] tensor with each group's columns on its tile: one variable per tile, so
/// the rows of a group's column interval follow each other in memory.
poplar::Tensor createByColumns(poplar::Graph &graph, const poplar::Type &type, std::size_t rows,
                               std::size_t columns, const std::vector<ColumnGroup> &groups,
                               const poplar::DebugContext &dc);

/// `columns` with each interval longer than a MultiVertex's workers can split exactly
/// (support::maxWorkerSplitElements of `type`) cut into pieces: the intervals a slicing vertex
/// that shares a row's columns between its workers may be given.
std::vector<poplar::Interval> workerSplitColumns(const poplar::Target &target,
                                                 const std::vector<poplar::Interval> &columns,
                                                 const poplar::Type &type);

/// The rows of `t2d` restricted to the column interval `c`, joined row after row.
poplar::Tensor rowsOf(const poplar::Tensor &t2d, const poplar::Interval &c);

/// `t` viewed as [t.dim(dim), everything else] and back: the dimension rolled to the front.
poplar::Tensor as2D(const poplar::Tensor &t, unsigned dim);
/// A [rows, columns] tensor in the shape `shape` rolled as as2D(., dim) rolls it, rolled back.
poplar::Tensor from2D(const poplar::Tensor &t2d, std::vector<std::size_t> shape, unsigned dim);

/// `shape`'s dimensions with `dims` first (in that order), then the others in order.
std::vector<unsigned> slicedFirst(std::size_t rank, const std::vector<std::size_t> &dims);

/// createSliceableTensor: rows are the positions of `dims`, columns the other elements, spread
/// by balancedColumns.
poplar::Tensor createSliceable(poplar::Graph &graph, const poplar::Type &type,
                               const std::vector<std::size_t> &shape,
                               const std::vector<std::size_t> &dims, std::size_t minGrainSize,
                               const poplar::DebugContext &dc);

/// [numIndices, shape with dims resized to sizes], each slice's columns laid out by `groups`.
poplar::Tensor createSlicesByColumns(poplar::Graph &graph, const poplar::Type &type,
                                     const std::vector<std::size_t> &shape,
                                     const std::vector<std::size_t> &dims,
                                     const std::vector<std::size_t> &sizes, std::size_t numIndices,
                                     const std::vector<ColumnGroup> &groups,
                                     const poplar::DebugContext &dc);

/// createSlicesByColumns with the column groups slicing `t` in `dims` would use.
poplar::Tensor createSlices(poplar::Graph &graph, const poplar::Tensor &t,
                            const std::vector<std::size_t> &dims,
                            const std::vector<std::size_t> &sizes, std::size_t numIndices,
                            const poplar::DebugContext &dc);

} // namespace popops::internal
