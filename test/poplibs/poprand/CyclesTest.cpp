// The simulator charges poprand's vertices PopLibs' estimates (the IPU's hardware generator),
// not the interpreted software generator's cycles.
#include "RandHarness.hpp"

#include <poprand/RandomGen.hpp>

#include <gtest/gtest.h>

namespace {

using namespace poplar;
using poprand::test::RandHarness;

std::uint64_t uniformRunCycles(std::size_t n) {
  RandHarness h(1);
  h.output("x", poprand::uniform(h.graph(), nullptr, 0, h.reference({n}), FLOAT, 0, 1, h.prog()));
  h.run();
  return h.cycles();
}

TEST(PoprandCycles, UniformChargesPopLibsEstimate) {
  // PopLibs: 4 + 4 * ceil(n / 32) + 132 (+4 for an odd n) tile cycles, which the simulator
  // shares between the 6 workers (rounding up to a multiple of 6): 536 -> 540 for 3200 floats,
  // 144 for 64. The interpreted code would take about 28 thread cycles per element.
  EXPECT_EQ(uniformRunCycles(3200) - uniformRunCycles(64), 540u - 144u);
}

} // namespace
