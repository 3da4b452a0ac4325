// The slicing vertices' cycle estimators (poplibs/popops/lib/SliceCycles.cpp) on worked examples
// of PopLibs' formulas, computed by hand.
#include "SliceCycles.hpp"
#include "OpHarness.hpp"

#include <gtest/gtest.h>

namespace {

using namespace poplar;
using namespace popops::internal;

struct Costs {
  popsdk::test::OpHarness h{1};
  std::uint64_t operator()(CycleEstimator f, Type type, std::vector<unsigned> regions,
                           unsigned slices) {
    return f(VertexCost{h.target(), -1, type, type, std::move(regions), slices});
  }
};

TEST(PopopsSliceCycles, DynamicSlice1D) {
  Costs cost;
  // float: 120 / 6 = 20 elements a worker, 10 copies; worker 39 + (24 + 2 * 10) * 2 = 127.
  EXPECT_EQ(cost(dynamicSlice1DCycles, FLOAT, {120}, 2), 25u + 6 * 127);
  // half: 20 elements a worker, 5 copies of 4; worker 39 + 34 = 73.
  EXPECT_EQ(cost(dynamicSlice1DCycles, HALF, {120}, 1), 25u + 6 * 73);
  // bool goes through the 8-bit path: 76 + (72 + 2 * 5).
  EXPECT_EQ(cost(dynamicUpdateSlice1DCycles, BOOL, {120}, 1), 25u + 6 * 158);
}

TEST(PopopsSliceCycles, DynamicSlice2D) {
  Costs cost;
  // float regions of 10 and 7 (5 and 3 vectors), 3 slices: 27 + (34 * 3 + 13) + (32 * 3 + 13).
  EXPECT_EQ(cost(dynamicSlice2DCycles, FLOAT, {10, 7}, 3), 27u + 115 + 109);
  // half region of 8 (2 vectors), 2 slices: 27 + (31 + 4) * 2 + 13.
  EXPECT_EQ(cost(dynamicUpdateSlice2DCycles, HALF, {8}, 2), 27u + 83);
}

TEST(PopopsSliceCycles, MultiSliceAndUpdates) {
  Costs cost;
  // 12 indices, 2 a worker, rows of 10 floats in 5 copies of 2 cycles: 6 * (30 + 2 * 29).
  EXPECT_EQ(cost(multiSliceCycles, FLOAT, {10}, 12), 6u * 88);
  EXPECT_EQ(cost(multiUpdateCycles, FLOAT, {10}, 12), 6u * 87);
  // Rows of 60 split over the workers (10 each); float atoms of 1: 12 + 9 * 3 per index.
  EXPECT_EQ(cost(multiUpdateAddCycles, FLOAT, {60}, 4), 6u * (33 + 4 * 39));
  // half: 10 elements a worker are 5 atoms of 2: 12 + 4 * 3 per index.
  EXPECT_EQ(cost(multiUpdateMaxCycles, HALF, {60}, 4), 6u * (33 + 4 * 24));
}

} // namespace
