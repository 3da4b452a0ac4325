// Host reference for popops' sorts and top-k: stable sorts of the 1-D slices along a dimension.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace popsdk::reference {

/// The permutation that stably sorts each 1-D slice of `keys` (row-major `shape`) along `dim`:
/// result[i] is the index in `keys` of the element that ends up at position i.
std::vector<std::size_t> sortPermutation(const std::vector<double> &keys,
                                         const std::vector<std::size_t> &shape, std::size_t dim,
                                         bool descending = false);

/// `values` permuted by a permutation from sortPermutation.
std::vector<double> permute(const std::vector<double> &values,
                            const std::vector<std::size_t> &permutation);

/// topK of the innermost rows: the k keys (and their positions in the row) in the order
/// TopKParams asks for: largest or smallest first, or reversed when sortOrder is the other way
/// (ascending = true for the smallest first).
std::pair<std::vector<double>, std::vector<double>> topK(const std::vector<double> &keys,
                                                         std::size_t rows, std::size_t n,
                                                         std::size_t k, bool largest,
                                                         bool ascending);

} // namespace popsdk::reference
