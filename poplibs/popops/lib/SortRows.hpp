// The sort behind sort*, topK* : the rows of a [rows, n] tensor sorted, with values, on a work
// layout of equal blocks spread over the tiles.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <string>

namespace popops::internal {

/// What travels with the keys.
enum class SortValues { None, Given, Positions };

struct SortedRows {
  poplar::Tensor keys;   // [rows, n]
  poplar::Tensor values; // [rows, n]: the given values, or UNSIGNED_INT positions, or invalid
};

/// Copies `keys` ([rows, n]; FLOAT, HALF, INT or UNSIGNED_INT) and the values into new tensors
/// and sorts each row, stably, ascending or descending; values move with their keys. `api`
/// names the caller in errors.
SortedRows sortRows(poplar::Graph &graph, const std::string &api, const poplar::Tensor &keys,
                    SortValues valuesKind, const poplar::Tensor &values, bool descending,
                    poplar::program::Sequence &prog, const poplar::DebugContext &dc);

/// Throws poplibs_error naming `api` unless `t` has a type the sort vertices take.
void checkSortType(const std::string &api, const std::string &name, const poplar::Tensor &t);

} // namespace popops::internal
