// The float2 / half4 loops of popops::map's generated codelets: which expressions get one, and
// that its results are bit for bit those of the op-by-op evaluation and of the host reference on
// every remainder and worker split, misaligned views, broadcast operands, in place, and with
// infinities, NaNs, signed zeros, half overflow and half subnormals.
#include "GenerateCodelet.hpp"
#include "OpHarness.hpp"

#include <popops/ElementWise.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace poplar;
using namespace popops::expr;
using popsdk::test::hostData;
using popsdk::test::OpHarness;
using popsdk::test::roundTo;

const double inf = std::numeric_limits<double>::infinity();

/// Values in [-4, 4] with the special values every few elements: infinities, NaN, signed zeros,
/// and for half a value whose sums overflow (60000) and a subnormal (2^-20).
std::vector<double> inputs(Type type, std::size_t n, unsigned seed) {
  auto v = hostData(type, n, -4, 4, seed);
  const std::vector<double> special = {inf,
                                       -inf,
                                       std::nan(""),
                                       -0.0,
                                       0.0,
                                       type == HALF ? 60000 : 3e38,
                                       type == HALF ? 0x1p-20 : 0x1p-140};
  for (std::size_t i = seed; i < n; i += 5)
    v[i] = special[(i + seed) % special.size()];
  return v;
}

/// Bit-for-bit equality of device values held as doubles: NaN matches NaN, zeros their sign.
void expectSameBits(const std::vector<double> &got, const std::vector<double> &want,
                    const std::string &what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << what << " [" << i << "] " << got[i];
      continue;
    }
    EXPECT_EQ(got[i], want[i]) << what << " [" << i << "]";
    EXPECT_EQ(std::signbit(got[i]), std::signbit(want[i])) << what << " [" << i << "]";
  }
}

bool hasVectorLoop(const Expr &e, Type type, bool inPlace = false) {
  auto g = popops::internal::generateCodelet(e, {type, type, type}, type, inPlace);
  return g.source.find("forEachVector") != std::string::npos;
}

TEST(PopopsMapVector, WhichExpressionsGetAVectorLoop) {
  for (Type t : {FLOAT, HALF}) {
    SCOPED_TRACE(t.toString());
    EXPECT_TRUE(hasVectorLoop((_1 + _2) * _3, t));
    EXPECT_TRUE(hasVectorLoop(-_1 * _2 - Square(_3) + 1.5f, t));
    EXPECT_TRUE(hasVectorLoop(_1 * 2.0f, t, true));
    // A predicate, select, clamp or cast anywhere keeps the expression scalar.
    EXPECT_FALSE(hasVectorLoop(Select(_1, _2, _1 > _3), t));
    EXPECT_FALSE(hasVectorLoop(Clamp(_1 + _2, _2, _3), t));
    EXPECT_FALSE(hasVectorLoop(Cast(Cast(_1, INT) + 1, t), t));
  }
  // Ops with no f32v2 / f16v4 instruction run lane by lane in the vector loop.
  EXPECT_TRUE(hasVectorLoop(Max(_1 + _2, _3) * Exp(_1), FLOAT));
  EXPECT_TRUE(hasVectorLoop(Max(_1 + _2, _3) * Exp(_1), HALF));
  // ... but a float loop of lane ops alone would be no faster than the scalar loop.
  EXPECT_FALSE(hasVectorLoop(Max(_1, Const(0.0f)), FLOAT));
  EXPECT_TRUE(hasVectorLoop(Max(_1, Const(0.0f)), HALF));
  // Integer expressions have no vector loop.
  EXPECT_FALSE(hasVectorLoop(_1 + _2 * _3, INT));
}

/// Runs `expr` over `n`-element inputs on `tiles` tiles, generated and op by op, and checks them
/// against each other and, where given, against `reference` (element i of each input).
void checkMap(const Expr &expr, Type type, std::size_t n, unsigned tiles,
              const std::function<double(double, double, double)> &reference) {
  std::vector<double> a = inputs(type, n, 1), b = inputs(type, n, 2), c = inputs(type, n, 3);
  std::vector<double> results[2];
  for (bool generate : {true, false}) {
    OpHarness h(tiles);
    Tensor ta = h.input("a", type, {n}, a), tb = h.input("b", type, {n}, b),
           tc = h.input("c", type, {n}, c);
    OptionFlags opts{{"enableGenerateCodelet", generate ? "true" : "false"}};
    h.output("out", popops::map(h.graph(), expr, {ta, tb, tc}, h.prog(), {}, opts));
    h.run();
    results[generate] = h.result("out");
  }
  std::string what = expr.name() + " " + type.toString() + " n=" + std::to_string(n);
  expectSameBits(results[true], results[false], what + " generated vs op by op");
  if (reference) {
    std::vector<double> want(n);
    for (std::size_t i = 0; i < n; ++i)
      want[i] = reference(a[i], b[i], c[i]);
    expectSameBits(results[true], want, what + " vs host");
  }
}

TEST(PopopsMapVector, EveryRemainderAndWorkerSplitMatches) {
  for (Type t : {FLOAT, HALF}) {
    auto r = [t](double x) { return roundTo(t, x); };
    for (std::size_t n : {1, 2, 3, 4, 5, 7, 9, 13, 47, 101}) {
      checkMap((_1 + _2) * _3, t, n, 1,
               [&](double a, double b, double c) { return r(r(a + b) * c); });
      checkMap(-_1 * _2 - Square(_3) + 1.5f, t, n, 2,
               [&](double a, double b, double c) { return r(r(r(-a * b) - r(c * c)) + 1.5); });
    }
  }
}

TEST(PopopsMapVector, LanesMatchTheScalarOps) {
  for (Type t : {FLOAT, HALF}) {
    auto r = [t](double x) { return roundTo(t, x); };
    for (std::size_t n : {3, 8, 101}) {
      checkMap(Max(_1 + _2, _3) - Min(_2, Const(0.5f)), t, n, 2, nullptr);
      checkMap(Abs(_1 - _2) * Exp(_3 * 0.25f), t, n, 2, nullptr);
      checkMap(Max(_1, Const(0.0f)) * _2, t, n, 1, [&](double a, double b, double) {
        return r((std::isnan(a) ? 0.0 : std::fmax(a, 0.0)) * b);
      });
      checkMap(Sqrt(Square(_1) + 1.0f) / _2, t, n, 1, nullptr);
      // Lane ops alone (a half4 loop; float keeps the scalar loop).
      checkMap(Exp(Max(_1, Const(-1.0f))), t, n, 2, nullptr);
    }
  }
}

TEST(PopopsMapVector, MisalignedViewsBroadcastOperandsAndInPlace) {
  for (Type t : {FLOAT, HALF}) {
    SCOPED_TRACE(t.toString());
    auto r = [t](double x) { return roundTo(t, x); };
    const std::size_t rows = 3, n = 37;
    auto a = inputs(t, rows * n + 1, 1), b = inputs(t, n, 2), s = std::vector<double>{-2.5};
    OpHarness h(2);
    Tensor ta = h.input("a", t, {rows * n + 1}, a), tb = h.input("b", t, {n}, b);
    Tensor ts = h.input("s", t, {}, s);
    // Rows of `a` that start one element into the variable, a row broadcast down them, a scalar.
    Tensor view = ta.slice(1, rows * n + 1).reshape({rows, n});
    h.output("out", popops::map(h.graph(), (_1 + _2) * _3, {view, tb, ts}, h.prog()));
    popops::mapInPlace(h.graph(), _1 * _2 - 1.0f, {view, ts}, h.prog());
    h.output("a", ta);
    h.run();
    std::vector<double> want(rows * n), wantA = a;
    for (std::size_t i = 0; i < rows * n; ++i) {
      want[i] = r(r(a[i + 1] + b[i % n]) * s[0]);
      wantA[i + 1] = r(r(a[i + 1] * s[0]) - 1.0);
    }
    expectSameBits(h.result("out"), want, "out");
    expectSameBits(h.result("a"), wantA, "in place");
  }
}

/// Simulated cycles of map(expr) over three 1M-element inputs on a 1472-tile ipu2.
std::uint64_t mapCycles(const Expr &expr, Type type, bool generate) {
  const std::size_t n = 1 << 20;
  OpHarness h(1472);
  std::vector<Tensor> ins;
  for (unsigned i = 0; i < 3; ++i)
    ins.push_back(h.input("in" + std::to_string(i), type, {n}, hostData(type, n, -4, 4, i + 1)));
  OptionFlags opts{{"enableGenerateCodelet", generate ? "true" : "false"}};
  h.output("out", popops::map(h.graph(), expr, ins, h.prog(), {}, opts));
  h.run();
  return h.runAgain();
}

// The measurements of docs/popops.md ("Measured"): the fused codelet, one pass over memory,
// beats evaluating op by op (a pass per op) for each expression and type.
TEST(PopopsMapVector, CyclesAgainstOpByOp) {
  std::vector<std::pair<std::string, std::unique_ptr<Expr>>> exprs;
  exprs.emplace_back("(_1+_2)*_3", std::make_unique<Mul>(Add(_1, _2), _3));
  exprs.emplace_back("max(_1+_2,_3)", std::make_unique<Max>(Add(_1, _2), _3));
  exprs.emplace_back("max(_1,0)", std::make_unique<Max>(_1, Const(0.0f)));
  for (Type t : {FLOAT, HALF})
    for (const auto &[name, e] : exprs) {
      std::uint64_t fused = mapCycles(*e, t, true), opByOp = mapCycles(*e, t, false);
      std::cout << name << " " << t << ", 1M elements, 1472 tiles: generated " << fused
                << " cycles, op by op " << opByOp << "\n";
      EXPECT_LT(fused, opByOp) << name << " " << t;
    }
}

} // namespace
