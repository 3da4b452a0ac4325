// popnn pooling against the host reference: MAX, AVG and SUM over 1-D and 2-D fields with
// strides, padding and truncation, float and half, one and four tiles; the input gradients
// against central differences of the reference forward, and MAX's tie rules.
#include "FiniteDifference.hpp"
#include "NnPooling.hpp"
#include "NnTest.hpp"

#include <popnn/Pooling.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace {

using namespace poplar;
using popnn::PoolingType;
using popnn::pooling::PoolParams;
using popnn::test::expectClose;
using popnn::test::NnHarness;
using popnn::test::tolerance;
namespace ref = popsdk::reference;

struct Case {
  std::string name;
  ref::Pooling p;
};

ref::Pooling withType(ref::Pooling p, PoolingType t) {
  p.type = t;
  return p;
}

/// 2-D: kernel 3x2, stride 2x1, one row of padding above and below, the last column truncated.
const ref::Pooling k2D{PoolingType::MAX, {5, 6}, {3, 2}, {2, 1}, {1, 0}, {1, -1}, 2, 3};
/// 1-D: kernel 3, stride 3, no padding.
const ref::Pooling k1D{PoolingType::MAX, {9}, {3}, {3}, {0}, {0}, 1, 2};

PoolParams paramsOf(const ref::Pooling &p, Type type) {
  return PoolParams(p.type, p.field, p.kernel, p.stride, p.paddingLower, p.paddingUpper, p.channels,
                    p.batch, type);
}

std::vector<std::size_t> shapeOf(const ref::Pooling &p) {
  std::vector<std::size_t> s = {p.batch, p.channels};
  s.insert(s.end(), p.field.begin(), p.field.end());
  return s;
}

/// Distinct values, exact in half (multiples of 1/16 on [-n/32, n/32)): no ties for MAX, so
/// its gradient is the derivative.
std::vector<double> distinctValues(std::size_t n, unsigned seed) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), 0.0);
  std::shuffle(v.begin(), v.end(), std::mt19937(seed));
  for (auto &x : v)
    x = (x - double(n) / 2) / 16;
  return v;
}

void forwardTest(const ref::Pooling &base, Type type, unsigned tiles) {
  auto x = distinctValues(base.inputSize(), 81);
  NnHarness h(tiles);
  Tensor in = h.input("in", type, shapeOf(base), x);
  for (auto t : {PoolingType::MAX, PoolingType::AVG, PoolingType::SUM}) {
    auto p = withType(base, t);
    Tensor out = popnn::pooling::pool(h.graph(), paramsOf(p, type), in, h.prog());
    EXPECT_EQ(out.dim(2), p.outputField()[0]);
    h.output(popnn::pooling::asString(t), out);
  }
  h.run();
  for (auto t : {PoolingType::MAX, PoolingType::AVG, PoolingType::SUM})
    expectClose(h.result(popnn::pooling::asString(t)), ref::pool(withType(base, t), x),
                tolerance(type), popnn::pooling::asString(t), 1);
}

TEST(PopnnPooling, Forward2DFloatFourTiles) { forwardTest(k2D, FLOAT, 4); }
TEST(PopnnPooling, Forward2DHalfOneTile) { forwardTest(k2D, HALF, 1); }
TEST(PopnnPooling, Forward1DFloatOneTile) { forwardTest(k1D, FLOAT, 1); }

TEST(PopnnPooling, OutputShapeAndFlops) {
  auto p = paramsOf(withType(k2D, PoolingType::AVG), FLOAT);
  EXPECT_EQ(p.getOutputFieldShape(), (std::vector<std::size_t>{3, 4}));
  EXPECT_EQ(popnn::pooling::getOutputFieldShape(p), k2D.outputField());
  EXPECT_EQ(popnn::pooling::getFwdFlops(p), 2u * 3 * 3 * 4 * 6);
}

/// Every pooling type's input gradient against central differences of the reference forward.
void gradientTest(const ref::Pooling &base, Type type, unsigned tiles) {
  auto x = distinctValues(base.inputSize(), 91);
  auto g = popsdk::test::hostData(type, base.outputSize(), -1, 1, 92);
  NnHarness h(tiles);
  Tensor in = h.input("in", type, shapeOf(base), x);
  for (auto t : {PoolingType::MAX, PoolingType::AVG, PoolingType::SUM}) {
    auto p = paramsOf(withType(base, t), type);
    Tensor pooled = popnn::pooling::pool(h.graph(), p, in, h.prog());
    Tensor grad = h.input(std::string("g") + popnn::pooling::asString(t), type, pooled.shape(), g);
    h.output(popnn::pooling::asString(t),
             popnn::pooling::poolInputGradient(h.graph(), p, in, pooled, grad, false, h.prog()));
    if (t != PoolingType::MAX)
      h.output(std::string("noInput/") + popnn::pooling::asString(t),
               popnn::pooling::poolInputGradient(h.graph(), p, 1, grad, h.prog()));
  }
  h.run();
  for (auto t : {PoolingType::MAX, PoolingType::AVG, PoolingType::SUM}) {
    auto p = withType(base, t);
    auto want =
        ref::vectorJacobianProduct([&](const auto &v) { return ref::pool(p, v); }, x, g, 1e-3);
    expectClose(h.result(popnn::pooling::asString(t)), want, tolerance(type),
                popnn::pooling::asString(t), 1);
    if (t != PoolingType::MAX)
      expectClose(h.result(std::string("noInput/") + popnn::pooling::asString(t)), want,
                  tolerance(type), "without input", 1);
  }
}

TEST(PopnnPooling, Gradients2DFloatFourTiles) { gradientTest(k2D, FLOAT, 4); }
TEST(PopnnPooling, Gradients2DHalfFourTiles) { gradientTest(k2D, HALF, 4); }
TEST(PopnnPooling, Gradients1DFloatOneTile) { gradientTest(k1D, FLOAT, 1); }

/// Ties: scaled splits each output's gradient between its maxima, unscaled gives it to each.
TEST(PopnnPooling, MaxGradientWithTies) {
  auto p = withType(k2D, PoolingType::MAX);
  std::vector<double> x(p.inputSize());
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = double((i / 4) % 3); // runs of equal values
  auto g = popsdk::test::hostData(FLOAT, p.outputSize(), -1, 1, 93);
  NnHarness h(2);
  Tensor in = h.input("in", FLOAT, shapeOf(p), x);
  auto params = paramsOf(p, FLOAT);
  Tensor pooled = popnn::pooling::pool(h.graph(), params, in, h.prog());
  Tensor grad = h.input("g", FLOAT, pooled.shape(), g);
  for (bool scaled : {false, true})
    h.output(
        scaled ? "scaled" : "unscaled",
        popnn::pooling::poolInputGradient(h.graph(), params, in, pooled, grad, scaled, h.prog()));
  h.run();
  expectClose(h.result("unscaled"), ref::maxPoolGradient(p, x, g, false), 1e-5, "unscaled");
  expectClose(h.result("scaled"), ref::maxPoolGradient(p, x, g, true), 1e-5, "scaled");
}

} // namespace
