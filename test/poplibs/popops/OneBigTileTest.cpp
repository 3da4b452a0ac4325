// popops ops on Poplar's CPU device, whose one tile holds more elements than an IPU tile can:
// each MultiVertex there must be given no more than its workers split exactly
// (support::maxWorkerSplitElements), else elements are skipped or computed wrongly.
#include "OpHarness.hpp"

#include <poplar/Device.hpp>
#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/NaN.hpp>
#include <popops/ScaledAdd.hpp>

#include "support/WorkerSplit.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <vector>

namespace {

using namespace poplar;
using popsdk::test::hostData;
using popsdk::test::OpHarness;
using popsdk::test::roundTo;

// More than twice what one float MultiVertex's workers split exactly (196,596 elements), as a
// 784 x 512 weight matrix is: the region takes three vertices.
constexpr std::size_t kElements = 784 * 512;
static_assert(kElements > 2 * popsdk::support::maxWorkerSplitElements(4));

OpHarness cpuHarness() { return OpHarness(Device::createCPUDevice()); }

TEST(PopopsOneBigTile, TheLimitNeverBindsOnAnIpuTile) {
  OpHarness h(1);
  for (std::size_t bytes : {1, 2, 4, 8})
    EXPECT_GT(popsdk::support::maxWorkerSplitElements(bytes) * bytes, h.target().getBytesPerTile())
        << bytes << "-byte elements";
}

TEST(PopopsOneBigTile, AddInPlaceAndScaledAdd) {
  OpHarness h = cpuHarness();
  auto a = hostData(FLOAT, kElements, -8, 8, 1), b = hostData(FLOAT, kElements, -8, 8, 2);
  Tensor ta = h.input("a", FLOAT, {kElements}, a), tb = h.input("b", FLOAT, {kElements}, b);
  Tensor tc = h.input("c", FLOAT, {kElements}, a);
  popops::addInPlace(h.graph(), ta, tb, h.prog());
  popops::scaledAddTo(h.graph(), tc, tb, 2.0f, h.prog());
  h.output("a", ta);
  h.output("c", tc);
  h.run();
  std::size_t wrongSums = 0, wrongScaled = 0;
  for (std::size_t i = 0; i < kElements; ++i) {
    wrongSums += h.result("a")[i] != a[i] + b[i];
    wrongScaled += h.result("c")[i] != a[i] + 2 * b[i];
  }
  EXPECT_EQ(wrongSums, 0u);
  EXPECT_EQ(wrongScaled, 0u);
}

TEST(PopopsOneBigTile, CastToHalf) {
  OpHarness h = cpuHarness();
  auto v = hostData(FLOAT, kElements, -300, 300, 3);
  Tensor src = h.input("src", FLOAT, {kElements}, v);
  h.output("dst", popops::cast(h.graph(), src, HALF, h.prog()));
  h.run();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < kElements; ++i)
    wrong += h.result("dst")[i] != roundTo(HALF, v[i]);
  EXPECT_EQ(wrong, 0u);
}

TEST(PopopsOneBigTile, HasNaNSeesTheLastElement) {
  OpHarness h = cpuHarness();
  auto v = hostData(FLOAT, kElements, -8, 8, 4);
  v.back() = std::nan("");
  Tensor src = h.input("src", FLOAT, {kElements}, v);
  h.output("nan", popops::hasNaN(h.graph(), src, h.prog()));
  h.run();
  EXPECT_EQ(h.result("nan"), std::vector<double>{1});
}

TEST(PopopsOneBigTile, DynamicSliceOfLongRows) {
  OpHarness h = cpuHarness();
  auto v = hostData(FLOAT, 2 * kElements, -8, 8, 5);
  Tensor t = h.input("t", FLOAT, {2, kElements}, v);
  Tensor offset = h.input("offset", UNSIGNED_INT, {1}, {1});
  h.output("row", popops::dynamicSlice(h.graph(), t, offset, {0}, {1}, h.prog()));
  h.run();
  EXPECT_EQ(h.result("row"), std::vector<double>(v.begin() + kElements, v.end()));
}

} // namespace
