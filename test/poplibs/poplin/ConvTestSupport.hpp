// What poplin's convolution tests share: the host-side shapes of a ConvParams' tensors, a test
// case, and the comparison with the host reference.
#pragma once

#include <poplin/ConvParams.hpp>

#include <poplar/Type.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <vector>

namespace popsdk::test {

inline std::vector<std::size_t> inputShape(const poplin::ConvParams &p) {
  std::vector<std::size_t> s = {p.batchSize, p.getNumInputChans()};
  s.insert(s.end(), p.inputFieldShape.begin(), p.inputFieldShape.end());
  return s;
}
inline std::vector<std::size_t> outputShape(const poplin::ConvParams &p) {
  std::vector<std::size_t> s = {p.batchSize, p.getNumOutputChans()};
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d)
    s.push_back(p.getOutputSize(d));
  return s;
}
inline std::vector<std::size_t> weightsShape(const poplin::ConvParams &p) {
  std::vector<std::size_t> s = {p.numConvGroups, p.outputChannelsPerConvGroup,
                                p.inputChannelsPerConvGroup};
  s.insert(s.end(), p.kernelShape.begin(), p.kernelShape.end());
  return s;
}
inline std::size_t count(const std::vector<std::size_t> &s) {
  std::size_t n = 1;
  for (auto x : s)
    n *= x;
  return n;
}

struct ConvCase {
  const char *name;
  unsigned tiles;
  poplin::ConvParams params;
};
inline void PrintTo(const ConvCase &c, std::ostream *os) { *os << c.name << " " << c.params; }

/// Values that are multiples of 1/64 in [-1, 1] and sums of few terms are exact in float; for
/// half, the tolerance is relative to the terms' size.
inline void expectClose(const std::vector<double> &got, const std::vector<double> &want,
                        const poplar::Type &type, const char *what = "") {
  ASSERT_EQ(got.size(), want.size()) << what;
  double scale = 0;
  for (double w : want)
    scale = std::max(scale, std::fabs(w));
  const double tol = (type == poplar::HALF ? 4e-3 : 1e-6) * (scale + 1);
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], tol) << what << " element " << i;
}

} // namespace popsdk::test
