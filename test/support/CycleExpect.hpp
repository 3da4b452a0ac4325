// GoogleTest check of a VertexTester run's cycles against an estimate (tests only: the support
// library itself does not link GoogleTest).
#pragma once

#include "VertexTester.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace popsdk::test {

/// Expects |measured - estimated| / measured < tolerance for the run's thread cycles, with a
/// message that shows both numbers.
inline void expectCycles(const RunResult &r, double estimated, double tolerance) {
  ASSERT_GT(r.threadCycles, 0u) << "no cycles for '" << r.vertexType << "' in the profile";
  double measured = double(r.threadCycles);
  EXPECT_LT(std::fabs(measured - estimated) / measured, tolerance)
      << r.vertexType << ": measured " << measured << " thread cycles, estimated " << estimated
      << " (if popc's code generation changed, re-derive the model from `popc -S`)";
}

} // namespace popsdk::test
