// Host reference for poplin's matmuls.
#include "MatMul.hpp"

#include <cmath>

namespace popsdk::reference {

Product matMul(const std::vector<double> &a, const std::vector<double> &b, std::size_t groups,
               std::size_t m, std::size_t k, std::size_t n) {
  Product p;
  p.values.assign(groups * m * n, 0.0);
  p.magnitude.assign(groups * m * n, 0.0);
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        double sum = 0, size = 0;
        for (std::size_t x = 0; x < k; ++x) {
          const double t = a[(g * m + i) * k + x] * b[(g * k + x) * n + j];
          sum += t;
          size += std::fabs(t);
        }
        p.values[(g * m + i) * n + j] = sum;
        p.magnitude[(g * m + i) * n + j] = size;
      }
  return p;
}

} // namespace popsdk::reference
