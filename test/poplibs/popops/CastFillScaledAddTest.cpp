// popops::cast, fill/zero and the scaled additions against the host reference, with their
// errors.
#include "ExpectThrows.hpp"
#include "OpHarness.hpp"

#include <poplar/exceptions.hpp>
#include <popops/Cast.hpp>
#include <popops/Fill.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

namespace {

using namespace poplar;
using popsdk::test::expectThrowsWith;
using popsdk::test::hostData;
using popsdk::test::OpHarness;
using popsdk::test::roundTo;

/// What the device makes of x converted from `from` to `to`: x != 0 for bool, floating point
/// truncated toward zero (saturating at 0 for unsigned), int to unsigned modulo 2^32.
double converted(double x, Type from, Type to) {
  if (to == BOOL)
    return x != 0;
  if (to == INT)
    return std::trunc(x);
  if (to == UNSIGNED_INT)
    return from == INT ? double(std::uint32_t(std::int32_t(x))) : x < 0 ? 0 : std::trunc(x);
  return roundTo(to, x);
}

TEST(PopopsCast, EveryPairOfTypes) {
  const std::vector<Type> types = {FLOAT, HALF, INT, UNSIGNED_INT, BOOL};
  for (Type from : types)
    for (Type to : types) {
      SCOPED_TRACE(from.toString() + " -> " + to.toString());
      OpHarness h(3);
      std::size_t n = 57;
      auto v = hostData(from, n, from == UNSIGNED_INT ? 0 : -300, 300, 5);
      Tensor src = h.input("src", from, {3, 19}, v);
      Tensor dst = popops::cast(h.graph(), src, to, h.prog());
      EXPECT_EQ(dst.elementType(), to);
      EXPECT_EQ(dst.shape(), src.shape());
      h.output("dst", dst);
      h.run();
      for (std::size_t i = 0; i < n; ++i)
        EXPECT_EQ(h.result("dst")[i], converted(v[i], from, to)) << i << ": " << v[i];
    }
}

TEST(PopopsCast, TransposedSourceAndExistingDestination) {
  OpHarness h(2);
  auto v = hostData(FLOAT, 12, -8, 8, 2);
  Tensor src = h.input("src", FLOAT, {3, 4}, v);
  Tensor dst = h.graph().addVariable(HALF, {4, 3});
  h.graph().setTileMapping(dst, 1);
  popops::castWithOutput(h.graph(), src.transpose(), dst, h.prog());
  h.output("dst", dst);
  h.run();
  for (unsigned i = 0; i < 3; ++i)
    for (unsigned j = 0; j < 4; ++j)
      EXPECT_EQ(h.result("dst")[j * 3 + i], roundTo(HALF, v[i * 4 + j]));
}

TEST(PopopsFill, FillAndZeroEveryType) {
  for (Type type : {FLOAT, HALF, INT, UNSIGNED_INT, BOOL}) {
    SCOPED_TRACE(type.toString());
    OpHarness h(4);
    Tensor a = h.input("a", type, {7, 9}, hostData(type, 63, 0, 5));
    Tensor b = h.input("b", type, {5}, hostData(type, 5, 0, 5));
    popops::fill(h.graph(), a, h.prog(), 3);
    popops::zero(h.graph(), b, h.prog());
    h.output("a", a);
    h.output("b", b);
    h.run();
    for (double x : h.result("a"))
      EXPECT_EQ(x, type == BOOL ? 1 : 3);
    for (double x : h.result("b"))
      EXPECT_EQ(x, 0);
  }
}

TEST(PopopsFill, NonContiguousViewOnlyTouchesItsElements) {
  OpHarness h(2);
  Tensor a = h.input("a", FLOAT, {4, 6}, std::vector<double>(24, 1));
  popops::fill(h.graph(), a.slice(1, 3, 1).transpose(), h.prog(), 2.5f);
  h.output("a", a);
  h.run();
  for (unsigned i = 0; i < 4; ++i)
    for (unsigned j = 0; j < 6; ++j)
      EXPECT_EQ(h.result("a")[i * 6 + j], j >= 1 && j < 3 ? 2.5 : 1);
}

TEST(PopopsScaledAdd, ConstantAndTensorScales) {
  for (Type type : {FLOAT, HALF, INT}) {
    SCOPED_TRACE(type.toString());
    OpHarness h(4);
    std::size_t n = 101;
    auto a = hostData(type, n, -8, 8, 1), b = hostData(type, n, -8, 8, 2);
    Tensor A1 = h.input("A1", type, {n}, a), A2 = h.input("A2", type, {n}, a);
    Tensor A3 = h.input("A3", type, {n}, a), A4 = h.input("A4", type, {n}, a);
    Tensor B = h.input("B", type, {n}, b);
    Type scaleType = type == INT ? INT : FLOAT;
    Tensor s = h.input("s", scaleType, {}, {3});
    popops::scaledAddTo(h.graph(), A1, B, 2.0f, h.prog());
    popops::scaledSubtractFrom(h.graph(), A2, B, s, h.prog());
    popops::scaledAddTo(h.graph(), A3, 2.0f, B, -1.0f, h.prog());
    popops::scaledAddTo(h.graph(), A4, s, B, s, h.prog(),
                        popops::ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY);
    for (auto name : {"A1", "A2", "A3", "A4"})
      h.output(name, name == std::string("A1")   ? A1
                     : name == std::string("A2") ? A2
                     : name == std::string("A3") ? A3
                                                 : A4);
    h.run();
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(h.result("A1")[i], roundTo(type, a[i] + 2 * b[i])) << i;
      EXPECT_EQ(h.result("A2")[i], roundTo(type, a[i] - 3 * b[i])) << i;
      EXPECT_EQ(h.result("A3")[i], roundTo(type, 2 * a[i] - b[i])) << i;
      EXPECT_EQ(h.result("A4")[i], roundTo(type, -2 * a[i] + 3 * b[i])) << i;
    }
  }
}

TEST(PopopsScaledAdd, Errors) {
  OpHarness h(2);
  Tensor a = h.input("a", FLOAT, {4}, {1, 2, 3, 4});
  Tensor b = h.input("b", FLOAT, {5}, {1, 2, 3, 4, 5});
  Tensor c = h.input("c", HALF, {4}, {1, 2, 3, 4});
  Tensor two = h.input("two", FLOAT, {2}, {1, 2});
  expectThrowsWith<poputil::poplibs_error>(
      [&] { popops::scaledAddTo(h.graph(), a, b, 1.0f, h.prog()); },
      {"popops::scaledAddTo", "{4}", "{5}"});
  expectThrowsWith<poputil::poplibs_error>(
      [&] { popops::scaledAddTo(h.graph(), a, c, 1.0f, h.prog()); },
      {"popops::scaledAddTo", "float", "half"});
  expectThrowsWith<poputil::poplibs_error>(
      [&] { popops::scaledSubtractFrom(h.graph(), a, a, two, h.prog()); },
      {"popops::scaledSubtractFrom", "one element", "{2}"});
  expectThrowsWith<invalid_option>(
      [&] {
        popops::scaledAddTo(h.graph(), a, a, 1.0f, h.prog(), {}, {{"optimizeForSpeed", "fast"}});
      },
      {"popops::scaledAddTo", "optimizeForSpeed", "fast"});
  expectThrowsWith<poputil::poplibs_error>(
      [&] { popops::cast(h.graph(), a, h.graph().addVariable(HALF, {3}), DebugContext()); },
      {"popops::cast", "{4}", "{3}"});
}

} // namespace
