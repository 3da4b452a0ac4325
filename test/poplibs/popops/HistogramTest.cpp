// popops::histogram against the host reference (test/reference/Histogram.hpp): float and half
// input, unsigned and float counts, absolute values, values on the levels, NaN and infinities,
// many regions per tile, updating an output; and its errors.
#include "Histogram.hpp"
#include "OpHarness.hpp"
#include "SliceTestUtil.hpp"

#include <poplar/exceptions.hpp>
#include <popops/GatherStatistics.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

#include <limits>

namespace {

using namespace poplar;
using namespace popsdk::test;
namespace ref = popsdk::reference;

void checkHistogram(Type type, const std::vector<std::size_t> &shape, std::vector<double> values,
                    const std::vector<double> &levels, bool absolute, bool useFloat,
                    unsigned tiles = 4) {
  OpHarness h(tiles);
  Tensor in = h.input("in", type, shape, values);
  Tensor lv = h.input("levels", type, {levels.size()}, levels);
  Tensor out = popops::histogram(h.graph(), in, lv, absolute, h.prog(), "histogram",
                                 {{"useFloatArithmetic", useFloat ? "true" : "false"}});
  EXPECT_EQ(out.elementType(), useFloat ? FLOAT : UNSIGNED_INT);
  ASSERT_EQ(out.shape(), std::vector<std::size_t>{levels.size() + 1});
  h.output("out", out);
  h.run();
  for (auto &v : values)
    v = roundTo(type, v);
  EXPECT_EQ(h.result("out"), ref::histogram(values, levels, absolute));
}

TEST(PopopsHistogram, TypesCountsAndAbsolute) {
  for (Type type : {FLOAT, HALF})
    for (bool useFloat : {false, true})
      for (bool absolute : {false, true}) {
        SCOPED_TRACE(type.toString() + (useFloat ? " float" : " unsigned") +
                     (absolute ? " abs" : ""));
        checkHistogram(type, {13, 7}, hostData(type, 91, -10, 10), {-5, -1, 0, 2.5, 6}, absolute,
                       useFloat);
      }
}

TEST(PopopsHistogram, EdgesAndSpecialValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  // Values on the levels fall in the bin above.
  checkHistogram(FLOAT, {6}, {-1, 0, 1, 2, 3, 0}, {0, 1, 2}, false, false);
  checkHistogram(FLOAT, {5}, {nan, inf, -inf, 1, 5}, {0, 2}, false, false);
  checkHistogram(HALF, {4}, {3, -3, 7, 1}, {}, false, false); // no levels: one bin of all
  checkHistogram(FLOAT, {1}, {0.5}, {1}, false, true);
  checkHistogram(FLOAT, {0}, {}, {1, 2}, false, false);
  checkHistogram(HALF, {3, 1000}, hostData(HALF, 3000, -100, 100), {-50, 0, 50}, true, false);
}

TEST(PopopsHistogram, ManyRegionsPerTileAndUpdatedOutput) {
  OpHarness h(2);
  auto &g = h.graph();
  auto values = hostData(FLOAT, 64, -4, 4);
  std::vector<double> levels{-2, 0, 2};
  Tensor in = g.addVariable(FLOAT, {64}, "in");
  for (unsigned i = 0; i < 64; ++i)
    g.setTileMapping(in[i], i % 2);
  h.write("in", in, values);
  Tensor lv = h.input("levels", FLOAT, {3}, levels);
  Tensor out = h.input("out", UNSIGNED_INT, {4}, {100, 200, 300, 400});
  Tensor outFloat = h.input("outFloat", FLOAT, {4}, {1, 1, 1, 1});
  popops::histogram(g, in, out, true, lv, false, h.prog());
  popops::histogram(g, in, outFloat, false, lv, false, h.prog());
  h.output("out", out);
  h.output("outFloat", outFloat);
  h.run();
  auto counts = ref::histogram(values, levels, false);
  EXPECT_EQ(h.result("outFloat"), counts);
  for (std::size_t k = 0; k < 4; ++k)
    counts[k] += 100.0 * (k + 1);
  EXPECT_EQ(h.result("out"), counts);
}

TEST(PopopsHistogram, Errors) {
  OpHarness h(1);
  auto &g = h.graph();
  auto &p = h.prog();
  Tensor in = h.input("in", FLOAT, {4}, {1, 2, 3, 4});
  Tensor inInt = h.input("inInt", INT, {4}, {1, 2, 3, 4});
  Tensor lv = h.input("lv", FLOAT, {2}, {1, 2});
  Tensor lvHalf = h.input("lvHalf", HALF, {2}, {1, 2});
  Tensor out2 = h.input("out2", UNSIGNED_INT, {2}, {0, 0});
  Tensor outInt = h.input("outInt", INT, {3}, {0, 0, 0});
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>([&] { popops::histogram(g, inInt, lv, false, p); },
                                  {"popops::histogram", "int", "float or half"});
  expectThrowsWith<poplibs_error>([&] { popops::histogram(g, in, lvHalf, false, p); },
                                  {"popops::histogram", "levels", "half", "float"});
  expectThrowsWith<poplibs_error>([&] { popops::histogram(g, in, out2, false, lv, false, p); },
                                  {"popops::histogram", "{2}", "3 elements"});
  expectThrowsWith<poplibs_error>([&] { popops::histogram(g, in, outInt, false, lv, false, p); },
                                  {"popops::histogram", "int", "float or unsigned int"});
  expectThrowsWith<poplar::invalid_option>(
      [&] {
        popops::histogram(g, in, lv, false, p, {}, {{"useFloatArithmetic", "maybe"}});
      },
      {"popops::histogram", "useFloatArithmetic", "maybe"});
}

} // namespace
