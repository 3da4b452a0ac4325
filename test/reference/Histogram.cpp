// Host reference for popops::histogram: each value's bin found by a linear scan of the levels.
#include "Histogram.hpp"

#include <cmath>

namespace popsdk::reference {

std::vector<double> histogram(const std::vector<double> &values, const std::vector<double> &levels,
                              bool absolute) {
  std::vector<double> counts(levels.size() + 1);
  for (double x : values) {
    if (absolute)
      x = std::fabs(x);
    std::size_t k = 0;
    while (k < levels.size() && !(x < levels[k]))
      ++k;
    counts[k] += 1;
  }
  return counts;
}

} // namespace popsdk::reference
