// Host reference for sorting: std::stable_sort over index lists.
#include "Sort.hpp"

#include <algorithm>
#include <numeric>

namespace popsdk::reference {

std::vector<std::size_t> sortPermutation(const std::vector<double> &keys,
                                         const std::vector<std::size_t> &shape, std::size_t dim,
                                         bool descending) {
  std::size_t inner = 1;
  for (std::size_t d = dim + 1; d < shape.size(); ++d)
    inner *= shape[d];
  std::size_t n = shape[dim], outer = n == 0 || inner == 0 ? 0 : keys.size() / (n * inner);
  std::vector<std::size_t> perm(keys.size());
  std::iota(perm.begin(), perm.end(), 0);
  for (std::size_t o = 0; o < outer; ++o)
    for (std::size_t i = 0; i < inner; ++i) {
      std::vector<std::size_t> line(n);
      for (std::size_t j = 0; j < n; ++j)
        line[j] = (o * n + j) * inner + i;
      auto sorted = line;
      std::stable_sort(sorted.begin(), sorted.end(), [&](std::size_t a, std::size_t b) {
        return descending ? keys[a] > keys[b] : keys[a] < keys[b];
      });
      for (std::size_t j = 0; j < n; ++j)
        perm[line[j]] = sorted[j];
    }
  return perm;
}

std::vector<double> permute(const std::vector<double> &values,
                            const std::vector<std::size_t> &permutation) {
  std::vector<double> out(permutation.size());
  for (std::size_t i = 0; i < permutation.size(); ++i)
    out[i] = values[permutation[i]];
  return out;
}

std::pair<std::vector<double>, std::vector<double>> topK(const std::vector<double> &keys,
                                                         std::size_t rows, std::size_t n,
                                                         std::size_t k, bool largest,
                                                         bool ascending) {
  std::vector<double> outKeys, outPositions;
  for (std::size_t r = 0; r < rows; ++r) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    const double *row = keys.data() + r * n;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return largest ? row[a] > row[b] : row[a] < row[b];
    });
    order.resize(k);
    bool reverse = largest == ascending;
    if (reverse)
      std::reverse(order.begin(), order.end());
    for (auto i : order) {
      outKeys.push_back(row[i]);
      outPositions.push_back(double(i));
    }
  }
  return {outKeys, outPositions};
}

} // namespace popsdk::reference
