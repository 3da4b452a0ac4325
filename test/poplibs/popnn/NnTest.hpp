// What the popnn tests share: a harness with popnn's codelets as well as popops', and the
// tolerance comparison of device results with the host reference.
#pragma once

#include "OpHarness.hpp"

#include <popnn/codelets.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace popnn::test {

class NnHarness : public popsdk::test::OpHarness {
public:
  explicit NnHarness(unsigned tiles = 4) : OpHarness(tiles) { popnn::addCodelets(graph()); }
  explicit NnHarness(poplar::Device device) : OpHarness(std::move(device)) {
    popnn::addCodelets(graph());
  }
};

/// Expects each got[i] within tolerance * (|want[i]| + floor) of want[i]: relative for large
/// values, absolute near zero. Reports the first few mismatches.
inline void expectClose(const std::vector<double> &got, const std::vector<double> &want,
                        double tolerance, const std::string &what, double floor = 0.1) {
  ASSERT_EQ(got.size(), want.size()) << what;
  unsigned reported = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    double bound = tolerance * (std::fabs(want[i]) + floor);
    if (!(std::fabs(got[i] - want[i]) <= bound) && reported++ < 5)
      ADD_FAILURE() << what << "[" << i << "]: got " << got[i] << ", want " << want[i] << " (bound "
                    << bound << ")";
  }
}

/// Tolerance of a result computed in float, or rounded through half.
inline double tolerance(poplar::Type type) { return type == poplar::HALF ? 2e-2 : 1e-4; }

} // namespace popnn::test
