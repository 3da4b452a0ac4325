// Host reference for poplin's matmuls: grouped products in double precision, with the size of
// each output's terms for a tolerance.
#pragma once

#include <cstddef>
#include <vector>

namespace popsdk::reference {

struct Product {
  std::vector<double> values;    // [G][M][N]
  std::vector<double> magnitude; // sum over k of |a * b|, per output
};

/// C[g] = A[g].B[g] for A [G][M][K] and B [G][K][N], row-major.
Product matMul(const std::vector<double> &a, const std::vector<double> &b, std::size_t groups,
               std::size_t m, std::size_t k, std::size_t n);

} // namespace popsdk::reference
