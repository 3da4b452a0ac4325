// Host reference for popops::normaliseImage.
#include "NormaliseImage.hpp"

#include "HostData.hpp"

namespace popsdk::reference {

std::vector<double> normaliseImage(const std::vector<double> &in, double inScale,
                                   const std::vector<double> &offsets,
                                   const std::vector<double> &scales, poplar::Type outType) {
  using popsdk::test::roundTo;
  const double scale = roundTo(outType, inScale);
  std::vector<double> out;
  for (std::size_t p = 0; p + 2 < in.size(); p += 3) {
    for (std::size_t c = 0; c < 3; ++c) {
      double x = roundTo(outType, in[p + c] * scale);
      x = roundTo(outType, x - offsets[c]);
      out.push_back(roundTo(outType, x * scales[c]));
    }
    out.push_back(0);
  }
  return out;
}

} // namespace popsdk::reference
