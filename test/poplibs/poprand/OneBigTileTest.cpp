// poprand on Poplar's CPU device, whose one tile holds more elements than a generating vertex's
// workers split exactly: every element is drawn, and the vertices after the first continue the
// tile's state rather than repeat the first one's values.
#include "RandHarness.hpp"

#include <poplar/Device.hpp>
#include <poprand/RandomGen.hpp>

#include <gtest/gtest.h>

#include <cstddef>

namespace {

using namespace poplar;
using poprand::test::RandHarness;
using poprand::test::stats;

// A 784 x 512 float weight matrix: more than twice the 196,596 floats one vertex may draw.
constexpr std::size_t kRows = 784, kCols = 512, kN = kRows * kCols;

TEST(PoprandOneBigTile, UniformFillsEveryElementWithFreshValues) {
  RandHarness h(Device::createCPUDevice());
  Tensor seed = h.seed("seed", 3, 4);
  Tensor ref = h.reference({kRows, kCols});
  h.output("out", poprand::uniform(h.graph(), &seed, 0, ref, FLOAT, 1, 2, h.prog()));
  h.run();
  const auto &xs = h.result("out");
  auto s = stats(xs);
  EXPECT_GE(s.min, 1); // an element no vertex drew holds 0
  EXPECT_LE(s.max, 2);
  // Values a half apart in the output come from different vertices and must differ.
  std::size_t repeated = 0;
  for (std::size_t i = 0; i < kN / 2; ++i)
    repeated += xs[i] == xs[i + kN / 2];
  EXPECT_LT(repeated, kN / 1000);
}

} // namespace
