// popops::map and the named element-wise functions against the host reference: every op of the
// op table for every type it has, in-place and with-output forms, broadcasting, views, fused
// expressions (generated codelets) and the errors.
#include "Elementwise.hpp"
#include "ElementwiseInputs.hpp"
#include "ExpectThrows.hpp"
#include "OpHarness.hpp"

#include <poplar/exceptions.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "popops/ElementwiseOps.hpp"
#include "popops/TypeLists.hpp"

namespace {

using namespace poplar;
using namespace popops::expr;
using popsdk::test::expectThrowsWith;
using popsdk::test::hostData;
using popsdk::test::OpHarness;
using popsdk::test::roundTo;
namespace ref = popsdk::reference;

Type typeOfToken(const std::string &t) {
  if (t == "float")
    return FLOAT;
  if (t == "half")
    return HALF;
  if (t == "int")
    return INT;
  if (t == "unsigned")
    return UNSIGNED_INT;
  return BOOL;
}

struct UnaryCase {
  UnaryOpType op;
  std::string name;
  Type type;
};
struct BinaryCase {
  BinaryOpType op;
  std::string name;
  Type type;
};

std::vector<UnaryCase> unaryCases() {
  std::vector<UnaryCase> cases;
#define UNARY_CASE(op, T) cases.push_back({UnaryOpType::op, #op, typeOfToken(#T)});
#define UNARY_ROW(ignored, op, types, result) POPOPS_TYPES_##types(UNARY_CASE, op)
  POPOPS_UNARY_OPS(UNARY_ROW, _)
  return cases;
}

std::vector<BinaryCase> binaryCases() {
  std::vector<BinaryCase> cases;
#define BINARY_CASE(op, T) cases.push_back({BinaryOpType::op, #op, typeOfToken(#T)});
#define BINARY_ROW(ignored, op, types, result) POPOPS_TYPES_##types(BINARY_CASE, op)
  POPOPS_BINARY_OPS(BINARY_ROW, _)
  return cases;
}

void expectClose(const std::vector<double> &actual, const std::vector<double> &expected,
                 double relTol, const std::string &what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    double a = actual[i], e = expected[i];
    if (std::isnan(e)) {
      EXPECT_TRUE(std::isnan(a)) << what << " [" << i << "]";
      continue;
    }
    double tol = relTol * std::max(1.0, std::fabs(e));
    EXPECT_NEAR(a, e, tol) << what << " [" << i << "]";
  }
}

// ---- Every op of the table, every type -------------------------------------------------------

TEST(PopopsElementWise, EveryUnaryOpMatchesTheReference) {
  for (const auto &c : unaryCases()) {
    SCOPED_TRACE(c.name + " " + c.type.toString());
    OpHarness h(4);
    const std::vector<std::size_t> shape = {3, 7};
    auto in = popsdk::test::unaryInputs(c.op, c.type, 21);
    Tensor t = h.input("in", c.type, shape, in);
    Tensor out = popops::map(h.graph(), c.op, t, h.prog());
    h.output("out", out);
    if (!ref::unaryIsPredicate(c.op)) {
      Tensor copy = h.input("copy", c.type, shape, in);
      popops::mapInPlace(h.graph(), c.op, copy, h.prog());
      h.output("inplace", copy);
    }
    h.run();
    std::vector<double> expected;
    for (double x : in)
      expected.push_back(ref::unaryOp(c.op, c.type, x));
    EXPECT_EQ(out.elementType(), ref::unaryIsPredicate(c.op) ? BOOL : c.type);
    expectClose(h.result("out"), expected, popsdk::test::unaryTolerance(c.op, c.type), "out");
    if (!ref::unaryIsPredicate(c.op))
      expectClose(h.result("inplace"), expected, popsdk::test::unaryTolerance(c.op, c.type),
                  "in place");
  }
}

TEST(PopopsElementWise, EveryBinaryOpMatchesTheReference) {
  for (const auto &c : binaryCases()) {
    SCOPED_TRACE(c.name + " " + c.type.toString());
    OpHarness h(4);
    const std::vector<std::size_t> shape = {5, 3};
    auto inputs = popsdk::test::binaryInputs(c.op, c.type, 15);
    const auto &a = inputs.in1, &b = inputs.in2;
    Tensor ta = h.input("a", c.type, shape, a);
    Tensor tb = h.input("b", c.type, shape, b);
    Tensor out = popops::map(h.graph(), c.op, ta, tb, h.prog());
    h.output("out", out);
    bool predicate = ref::binaryIsPredicate(c.op);
    Tensor copy;
    if (!predicate) {
      copy = h.input("copy", c.type, shape, a);
      popops::mapInPlace(h.graph(), c.op, copy, tb, h.prog());
      h.output("inplace", copy);
    }
    h.run();
    std::vector<double> expected;
    for (std::size_t i = 0; i < a.size(); ++i)
      expected.push_back(ref::binaryOp(c.op, c.type, a[i], b[i]));
    expectClose(h.result("out"), expected, popsdk::test::binaryTolerance(c.op, c.type), "out");
    if (!predicate)
      expectClose(h.result("inplace"), expected, popsdk::test::binaryTolerance(c.op, c.type),
                  "in place");
  }
}

// ---- Shapes, layouts and views ----------------------------------------------------------------

TEST(PopopsElementWise, EdgeSizesAndTensorsLargerThanATilesShare) {
  for (std::size_t n : {0, 1, 2, 7, 1001, 5000}) {
    SCOPED_TRACE(n);
    OpHarness h(4);
    auto a = hostData(FLOAT, n, -5, 5, 1), b = hostData(FLOAT, n, -5, 5, 2);
    Tensor ta = h.input("a", FLOAT, {n}, a), tb = h.input("b", FLOAT, {n}, b);
    Tensor out = popops::sub(h.graph(), ta, tb, h.prog());
    h.output("out", out);
    h.run();
    ASSERT_EQ(h.result("out").size(), n);
    for (std::size_t i = 0; i < n; ++i)
      EXPECT_EQ(h.result("out")[i], roundTo(FLOAT, a[i] - b[i]));
  }
}

TEST(PopopsElementWise, BroadcastOperands) {
  OpHarness h(4);
  auto a = hostData(FLOAT, 12, -5, 5, 1), row = hostData(FLOAT, 4, -5, 5, 2);
  auto col = hostData(FLOAT, 3, -5, 5, 3);
  Tensor ta = h.input("a", FLOAT, {3, 4}, a);
  Tensor tr = h.input("row", FLOAT, {4}, row);
  Tensor tc = h.input("col", FLOAT, {3, 1}, col);
  Tensor scalar = h.input("s", FLOAT, {}, {2.5});
  h.output("plusRow", popops::add(h.graph(), ta, tr, h.prog()));
  h.output("outer", popops::mul(h.graph(), tc, tr, h.prog()));
  h.output("scaled", popops::mul(h.graph(), scalar, ta, h.prog()));
  h.run();
  for (unsigned i = 0; i < 3; ++i)
    for (unsigned j = 0; j < 4; ++j) {
      EXPECT_EQ(h.result("plusRow")[i * 4 + j], roundTo(FLOAT, a[i * 4 + j] + row[j]));
      EXPECT_EQ(h.result("outer")[i * 4 + j], roundTo(FLOAT, col[i] * row[j]));
      EXPECT_EQ(h.result("scaled")[i * 4 + j], roundTo(FLOAT, 2.5 * a[i * 4 + j]));
    }
}

TEST(PopopsElementWise, NonContiguousViewsInAndInPlace) {
  OpHarness h(4);
  auto a = hostData(FLOAT, 12, -5, 5, 1), b = hostData(FLOAT, 12, -5, 5, 2);
  Tensor ta = h.input("a", FLOAT, {3, 4}, a);
  Tensor tb = h.input("b", FLOAT, {4, 3}, b);
  // a + b^T, and then b^T's view updated in place: b[j][i] -= a[i][j].
  h.output("sum", popops::add(h.graph(), ta, tb.transpose(), h.prog()));
  popops::subInPlace(h.graph(), tb.transpose(), ta, h.prog());
  h.output("b", tb);
  h.run();
  for (unsigned i = 0; i < 3; ++i)
    for (unsigned j = 0; j < 4; ++j) {
      EXPECT_EQ(h.result("sum")[i * 4 + j], roundTo(FLOAT, a[i * 4 + j] + b[j * 3 + i]));
      EXPECT_EQ(h.result("b")[j * 3 + i], roundTo(FLOAT, b[j * 3 + i] - a[i * 4 + j]));
    }
}

TEST(PopopsElementWise, WithOutputAndScalarOperands) {
  OpHarness h(2);
  auto a = hostData(INT, 10, -50, 50, 1);
  Tensor ta = h.input("a", INT, {10}, a);
  Tensor out = h.graph().addVariable(INT, {10}, "out");
  h.graph().setTileMapping(out, 1);
  popops::mulWithOutput(h.graph(), ta, ta, out, h.prog());
  h.output("out", out);
  h.output("plus3", popops::add(h.graph(), ta, 3, h.prog()));
  h.output("from10", popops::sub(h.graph(), 10, ta, h.prog()));
  h.run();
  for (unsigned i = 0; i < 10; ++i) {
    EXPECT_EQ(h.result("out")[i], a[i] * a[i]);
    EXPECT_EQ(h.result("plus3")[i], a[i] + 3);
    EXPECT_EQ(h.result("from10")[i], 10 - a[i]);
  }
}

// ---- Fused expressions ------------------------------------------------------------------------

TEST(PopopsElementWise, FusedExpressionsGenerateOneVertexAndMatch) {
  for (Type type : {FLOAT, HALF}) {
    SCOPED_TRACE(type.toString());
    for (bool generate : {true, false}) {
      SCOPED_TRACE(generate ? "generated codelet" : "op by op");
      OpHarness h(4);
      const std::size_t n = 333;
      auto a = hostData(type, n, -4, 4, 1), b = hostData(type, n, -4, 4, 2),
           c = hostData(type, n, 0.5, 4, 3);
      Tensor ta = h.input("a", type, {n}, a), tb = h.input("b", type, {n}, b),
             tc = h.input("c", type, {n}, c);
      OptionFlags opts{{"enableGenerateCodelet", generate ? "true" : "false"}};
      std::size_t before = h.graph().getNumComputeSets();
      Tensor fused =
          popops::map(h.graph(), (_1 + _2) * _3 - 1.5f, {ta, tb, tc}, h.prog(), {}, opts);
      if (generate) {
        EXPECT_EQ(h.graph().getNumComputeSets(), before + 1);
      }
      Tensor sel =
          popops::map(h.graph(), Select(Sqrt(_3), -_1, _1 > _2), {ta, tb, tc}, h.prog(), {}, opts);
      Tensor cast = popops::map(h.graph(), Cast(_1 * 2, INT) + 1, {ta}, h.prog(), {}, opts);
      popops::mapInPlace(h.graph(), Max(_1, _2) / 2, {ta, tb}, h.prog(), {}, opts);
      h.output("fused", fused);
      h.output("sel", sel);
      h.output("cast", cast);
      h.output("a", ta);
      h.run();
      // Each intermediate is rounded to the type, as the device computes it.
      auto r = [&](double x) { return roundTo(type, x); };
      for (std::size_t i = 0; i < n; ++i) {
        double expectFused = r(r(r(r(a[i] + b[i]) * c[i])) - 1.5);
        EXPECT_NEAR(h.result("fused")[i], expectFused, type == HALF ? 1e-2 : 1e-5) << i;
        double expectSel = a[i] > b[i] ? r(std::sqrt(c[i])) : -a[i];
        EXPECT_NEAR(h.result("sel")[i], expectSel, type == HALF ? 4e-3 : 1e-6) << i;
        EXPECT_EQ(h.result("cast")[i], std::trunc(a[i] * 2) + 1) << i;
        EXPECT_EQ(h.result("a")[i], r(std::fmax(a[i], b[i]) / 2)) << i;
      }
    }
  }
}

TEST(PopopsElementWise, NonFiniteConstantsAndComparisonsOfConstants) {
  const double inf = std::numeric_limits<double>::infinity();
  for (bool generate : {true, false}) {
    SCOPED_TRACE(generate ? "generated codelet" : "op by op");
    OpHarness h(2);
    auto a = hostData(FLOAT, 16, -4, 4, 1);
    Tensor ta = h.input("a", FLOAT, {16}, a);
    OptionFlags opts{{"enableGenerateCodelet", generate ? "true" : "false"}};
    auto map = [&](const Expr &e) { return popops::map(h.graph(), e, {ta}, h.prog(), {}, opts); };
    h.output("min", map(Min(_1, Const(inf, FLOAT))));
    h.output("max", map(Max(_1, Const(-inf, FLOAT))));
    h.output("nan", map(Select(Const(std::nan(""), FLOAT), _1, _1 < 0.0f)));
    // Two constants compared keep their own type (2 != 3), not the bool of the comparison.
    h.output("cmp", map(Select(-_1, _1, Equal(Const(2.0f), Const(3.0f)))));
    h.run();
    for (unsigned i = 0; i < 16; ++i) {
      EXPECT_EQ(h.result("min")[i], a[i]);
      EXPECT_EQ(h.result("max")[i], a[i]);
      EXPECT_EQ(std::isnan(h.result("nan")[i]), a[i] < 0) << i;
      EXPECT_EQ(h.result("cmp")[i], a[i]);
    }
  }
}

TEST(PopopsElementWise, SelectAndClampFunctions) {
  OpHarness h(3);
  auto a = hostData(FLOAT, 20, -5, 5, 1), b = hostData(FLOAT, 20, -5, 5, 2);
  auto cond = hostData(BOOL, 20, 0, 1, 3);
  Tensor ta = h.input("a", FLOAT, {20}, a), tb = h.input("b", FLOAT, {20}, b);
  Tensor tc = h.input("cond", BOOL, {20}, cond);
  Tensor lo = h.input("lo", FLOAT, {}, {-1}), hi = h.input("hi", FLOAT, {}, {2});
  h.output("sel", popops::select(h.graph(), ta, tb, tc, h.prog()));
  h.output("clamp", popops::clamp(h.graph(), ta, lo, hi, h.prog()));
  h.run();
  for (unsigned i = 0; i < 20; ++i) {
    EXPECT_EQ(h.result("sel")[i], cond[i] ? a[i] : b[i]);
    EXPECT_EQ(h.result("clamp")[i], std::fmin(std::fmax(a[i], -1), 2));
  }
}

// ---- Errors -----------------------------------------------------------------------------------

TEST(PopopsElementWise, Errors) {
  OpHarness h(2);
  Tensor f = h.input("f", FLOAT, {3, 4}, hostData(FLOAT, 12, 0, 1));
  Tensor g = h.input("g", FLOAT, {3, 5}, hostData(FLOAT, 15, 0, 1));
  Tensor i = h.input("i", INT, {3, 4}, hostData(INT, 12, 0, 9));
  auto &graph = h.graph();
  auto &prog = h.prog();
  expectThrowsWith<poputil::poplibs_error>([&] { popops::add(graph, f, g, prog); },
                                           {"popops::map", "{3,5}", "broadcast"});
  expectThrowsWith<poputil::poplibs_error>([&] { popops::add(graph, f, i, prog); },
                                           {"popops::map", "float", "int", "Cast"});
  expectThrowsWith<poputil::poplibs_error>(
      [&] {
        popops::map(graph, _1 + _3, {f, f}, prog);
      },
      {"_3", "2 tensor"});
  expectThrowsWith<poputil::poplibs_error>([&] { popops::exp(graph, i, prog); },
                                           {"EXPONENT", "int", "float, half"});
  expectThrowsWith<invalid_option>(
      [&] {
        popops::exp(graph, f, prog, {}, {{"enableGenerateCodelet", "maybe"}});
      },
      {"popops::map", "enableGenerateCodelet", "maybe"});
  expectThrowsWith<poputil::poplibs_error>(
      [&] { popops::addInPlace(graph, f.slice(0, 1, 0).broadcast(3, 0), f, prog); },
      {"popops::mapInPlace", "alias"});
  expectThrowsWith<poputil::poplibs_error>([&] { popops::addInPlace(graph, f[0], f, prog); },
                                           {"popops::mapInPlace", "{3,4}", "{4}"});
  Tensor wrongOut = graph.addVariable(HALF, {3, 4});
  graph.setTileMapping(wrongOut, 0);
  expectThrowsWith<poputil::poplibs_error>(
      [&] { popops::addWithOutput(graph, f, f, wrongOut, prog); },
      {"popops::mapWithOutput", "float", "half"});
}

} // namespace

namespace {

// Regression: every tile running a popops vertex used to be charged the code of all of
// popops.gp (hundreds of KB), so a tile could not hold a tensor of more than about 200 KB beside
// any popops op. Only the code of the vertex types a tile runs is charged now.
TEST(PopopsElementWise, ATileHoldsALargeTensorBesideTheCodeOfItsVertices) {
  popsdk::test::OpHarness h(1);
  const std::size_t n = 120000; // 480,000 bytes of the tile's 638,976
  Tensor a = h.input("a", FLOAT, {n}, std::vector<double>(n, 2.0));
  popops::negInPlace(h.graph(), a, h.prog());
  h.output("a", a.slice(0, 4));
  h.run();
  EXPECT_EQ(h.result("a"), (std::vector<double>{-2, -2, -2, -2}));
}

} // namespace
