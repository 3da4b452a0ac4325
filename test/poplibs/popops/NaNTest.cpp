// popops::hasNaN and popops::hasNaNOrInf: NaNs and infinities of either sign anywhere in float
// and half tensors (one region or several per tile, views, empty tensors), against a host scan
// of the same values; and their errors.
#include "OpHarness.hpp"
#include "SliceTestUtil.hpp"

#include <popops/NaN.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>

namespace {

using namespace poplar;
using namespace popsdk::test;

const double nan = std::numeric_limits<double>::quiet_NaN();
const double inf = std::numeric_limits<double>::infinity();

/// The host answer: any NaN (or, with orInf, any infinity).
bool hostCheck(const std::vector<double> &values, bool orInf) {
  for (double x : values)
    if (std::isnan(x) || (orInf && std::isinf(x)))
      return true;
  return false;
}

/// Values of `n` elements with `special` written at each of `at`.
std::vector<double> withSpecials(Type type, std::size_t n, const std::vector<std::size_t> &at,
                                 double special) {
  auto v = hostData(type, n, -100, 100);
  for (auto i : at)
    v[i] = special;
  return v;
}

enum class Layout { Linear, Interleaved, Transposed };

void checkBoth(Type type, const std::vector<std::size_t> &shape, const std::vector<double> &values,
               unsigned tiles = 4, Layout layout = Layout::Linear) {
  for (bool orInf : {false, true}) {
    SCOPED_TRACE(orInf ? "hasNaNOrInf" : "hasNaN");
    OpHarness h(tiles);
    auto &g = h.graph();
    Tensor t;
    std::vector<double> deviceValues = values;
    if (layout == Layout::Interleaved) {
      // Every other element on another tile: each tile holds many separate regions.
      t = g.addVariable(type, shape, "t");
      Tensor flat = t.flatten();
      for (std::size_t i = 0; i < flat.numElements(); ++i)
        g.setTileMapping(flat[i], unsigned(i % 2));
      h.write("t", t, values);
    } else {
      t = h.input("t", type, shape, values);
    }
    Tensor src = layout == Layout::Transposed ? t.transpose() : t;
    Tensor out = orInf ? popops::hasNaNOrInf(g, src, h.prog()) : popops::hasNaN(g, src, h.prog());
    EXPECT_EQ(out.elementType(), BOOL);
    EXPECT_EQ(out.rank(), 0u);
    h.output("out", out);
    h.run();
    EXPECT_EQ(h.result("out"), std::vector<double>{double(hostCheck(values, orInf))});
  }
}

TEST(PopopsNaN, FloatAndHalfEverywhere) {
  for (Type type : {FLOAT, HALF}) {
    SCOPED_TRACE(type.toString());
    checkBoth(type, {40}, withSpecials(type, 40, {}, 0));
    checkBoth(type, {40}, withSpecials(type, 40, {0}, nan));
    checkBoth(type, {40}, withSpecials(type, 40, {39}, nan));
    checkBoth(type, {40}, withSpecials(type, 40, {17}, inf));
    checkBoth(type, {40}, withSpecials(type, 40, {23}, -inf));
    checkBoth(type, {1}, {nan});
    checkBoth(type, {1}, {-inf});
    checkBoth(type, {1}, {7});
    checkBoth(type, {7, 13}, withSpecials(type, 91, {90}, nan));       // odd sizes
    checkBoth(type, {3, 1000}, withSpecials(type, 3000, {2222}, inf)); // large shares
    checkBoth(type, {0, 4}, {});
  }
}

TEST(PopopsNaN, LargestFiniteValuesAreNotInfinities) {
  checkBoth(FLOAT, {2}, {std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()});
  checkBoth(HALF, {2}, {65504, -65504});
}

TEST(PopopsNaN, ManyRegionsPerTileAndViews) {
  for (Type type : {FLOAT, HALF}) {
    SCOPED_TRACE(type.toString());
    checkBoth(type, {64}, withSpecials(type, 64, {}, 0), 2, Layout::Interleaved);
    checkBoth(type, {64}, withSpecials(type, 64, {63}, nan), 2, Layout::Interleaved);
    checkBoth(type, {64}, withSpecials(type, 64, {6}, -inf), 2, Layout::Interleaved);
    checkBoth(type, {6, 9}, withSpecials(type, 54, {50}, nan), 4, Layout::Transposed);
    checkBoth(type, {6, 9}, withSpecials(type, 54, {1}, inf), 4, Layout::Transposed);
  }
}

/// Simulated cycles of hasNaNOrInf over [64, 1024] floats (no NaN, so every element is read),
/// spread linearly over `tiles` tiles or all on tile 0.
std::uint64_t checkCycles(unsigned tiles, bool oneTile) {
  OpHarness h(tiles);
  auto values = hostData(FLOAT, 64 * 1024, -1, 1);
  Tensor t;
  if (oneTile) {
    t = h.graph().addVariable(FLOAT, {64, 1024}, "t");
    h.graph().setTileMapping(t, 0);
    h.write("t", t, values);
  } else {
    t = h.input("t", FLOAT, {64, 1024}, values);
  }
  Tensor out = popops::hasNaNOrInf(h.graph(), t, h.prog());
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.result("out"), std::vector<double>{0});
  return h.cycles();
}

TEST(PopopsNaN, CyclesFollowTheTileShare) {
  // The test reads each element once, a few cycles an element per worker: spread over 16 tiles
  // the check costs about a sixteenth of the work on one tile, plus the MAX reduction and cast.
  const std::uint64_t spread = checkCycles(16, false), oneTile = checkCycles(16, true);
  SCOPED_TRACE("16 tiles: " + std::to_string(spread) +
               " cycles, one tile: " + std::to_string(oneTile));
  EXPECT_LT(spread * 6, oneTile);
  std::cout << "hasNaNOrInf [64,1024] float: 16 tiles " << spread << " cycles, one tile " << oneTile
            << " cycles\n";
}

TEST(PopopsNaN, Errors) {
  OpHarness h(1);
  Tensor i = h.input("i", INT, {4}, {1, 2, 3, 4});
  Tensor b = h.input("b", BOOL, {4}, {1, 0, 1, 0});
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>([&] { popops::hasNaN(h.graph(), i, h.prog()); },
                                  {"popops::hasNaN", "int", "float or half"});
  expectThrowsWith<poplibs_error>([&] { popops::hasNaNOrInf(h.graph(), b, h.prog()); },
                                  {"popops::hasNaNOrInf", "bool", "float or half"});
}

} // namespace
