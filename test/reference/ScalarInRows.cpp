// Host reference for the scalar-in-rows ops.
#include "ScalarInRows.hpp"

#include "HostData.hpp"

#include <limits>

namespace popsdk::reference {

namespace {
constexpr std::uint32_t masked = 0xFFFFFFFFu;
const double nan = std::numeric_limits<double>::quiet_NaN();
} // namespace

std::vector<double> selectScalarFromRows(const std::vector<double> &params, std::size_t width,
                                         const std::vector<std::uint32_t> &indices) {
  std::vector<double> out;
  for (std::size_t r = 0; r < indices.size(); ++r)
    out.push_back(indices[r] == masked  ? 0.0
                  : indices[r] >= width ? nan
                                        : params[r * width + indices[r]]);
  return out;
}

std::vector<double> updateScalarInRows(std::vector<double> params, std::size_t width,
                                       const std::vector<std::uint32_t> &indices,
                                       poplar::Type type) {
  for (std::size_t r = 0; r < indices.size(); ++r) {
    if (indices[r] == masked)
      continue;
    if (indices[r] >= width) {
      for (std::size_t c = 0; c < width; ++c)
        params[r * width + c] = nan;
      continue;
    }
    double &x = params[r * width + indices[r]];
    x = popsdk::test::roundTo(type, x - 1);
  }
  return params;
}

} // namespace popsdk::reference
