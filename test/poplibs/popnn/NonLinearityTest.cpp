// popnn non-linearities against the host reference: every NonLinearityType forward (new tensor,
// in place on a view, in a compute set), float and half, on one and four tiles; input gradients
// against central differences of the reference forward; log-softmax; the shorthands.
#include "NnActivations.hpp"
#include "NnTest.hpp"

#include <popnn/LogSoftmax.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/NonLinearityDefUtil.hpp>

#include <gtest/gtest.h>

namespace {

using namespace poplar;
using popnn::NonLinearityType;
using popnn::test::expectClose;
using popnn::test::NnHarness;
using popnn::test::tolerance;
using popsdk::test::hostData;
namespace ref = popsdk::reference;

const std::vector<NonLinearityType> kAll = {
    NonLinearityType::SIGMOID,        NonLinearityType::HARD_SIGMOID,
    NonLinearityType::RELU,           NonLinearityType::TANH,
    NonLinearityType::GELU,           NonLinearityType::GELU_ERF,
    NonLinearityType::SWISH,          NonLinearityType::SOFTMAX,
    NonLinearityType::SOFTMAX_STABLE, NonLinearityType::SOFTMAX_SCALED};

bool isSoftmax(NonLinearityType t) { return t >= NonLinearityType::SOFTMAX; }

std::string name(NonLinearityType t, Type type) {
  return std::string(popnn::asString(t)) + "/" + type.toString();
}

/// Inputs on [-4, 4] off the kinks of RELU (0) and HARD_SIGMOID (+-2.5): multiples of 1/64 plus
/// 1/128, exact in half.
std::vector<double> inputs(Type type, std::size_t n, unsigned seed = 1) {
  auto v = hostData(type, n, -4, 4, seed);
  for (auto &x : v)
    x += 1.0 / 128;
  return v;
}

/// The reference of `type` on the values the device holds, rounded to the device type (a
/// softmax's relative error is on the scaled output).
std::vector<double> expected(NonLinearityType t, const std::vector<double> &x, std::size_t row) {
  return ref::nonLinearity(t, x, row);
}

double scaleOf(NonLinearityType t) {
  return t == NonLinearityType::SOFTMAX_SCALED ? SOFTMAX_SCALING : 1.0;
}

void forwardAll(Type type, unsigned tiles) {
  const std::vector<std::size_t> shape = {3, 37};
  NnHarness h(tiles);
  auto x = inputs(type, 3 * 37);
  Tensor in = h.input("x", type, shape, x);
  for (auto t : kAll) {
    float scaling = 0;
    h.output(name(t, type), popnn::nonLinearity(h.graph(), t, in, scaling, h.prog()));
    EXPECT_EQ(scaling, scaleOf(t));
  }
  h.run();
  for (auto t : kAll)
    expectClose(h.result(name(t, type)), expected(t, x, 37), tolerance(type), name(t, type),
                0.1 * scaleOf(t));
}

TEST(PopnnNonLinearity, ForwardEveryTypeFloatOneTile) { forwardAll(FLOAT, 1); }
TEST(PopnnNonLinearity, ForwardEveryTypeFloatFourTiles) { forwardAll(FLOAT, 4); }
TEST(PopnnNonLinearity, ForwardEveryTypeHalfFourTiles) { forwardAll(HALF, 4); }

/// In place on a transposed view: each tile holds many short regions, so the 2-D vertices run.
void inPlaceOnView(Type type) {
  NnHarness h(4);
  auto x = inputs(type, 24 * 10, 3);
  std::vector<std::vector<double>> want;
  for (auto t : kAll) {
    if (isSoftmax(t))
      continue;
    Tensor in = h.input(name(t, type), type, {24, 10}, x);
    popnn::nonLinearityInPlace(h.graph(), t, in.transpose(), h.prog());
    h.output(name(t, type), in);
    want.push_back(ref::nonLinearity(t, x, 10));
  }
  h.run();
  std::size_t k = 0;
  for (auto t : kAll)
    if (!isSoftmax(t))
      expectClose(h.result(name(t, type)), want[k++], tolerance(type), name(t, type));
}

TEST(PopnnNonLinearity, InPlaceOnAViewFloat) { inPlaceOnView(FLOAT); }
TEST(PopnnNonLinearity, InPlaceOnAViewHalf) { inPlaceOnView(HALF); }

TEST(PopnnNonLinearity, InPlaceSoftmaxOverTheInnermostDimension) {
  NnHarness h(4);
  auto x = inputs(FLOAT, 2 * 3 * 7);
  Tensor in = h.input("x", FLOAT, {2, 3, 7}, x);
  float scaling = 0;
  popnn::scaledSoftmaxStableInPlace(h.graph(), in, scaling, h.prog());
  EXPECT_EQ(scaling, float(SOFTMAX_SCALING));
  h.output("x", in);
  h.run();
  expectClose(h.result("x"), ref::nonLinearity(NonLinearityType::SOFTMAX_SCALED, x, 7), 1e-4,
              "scaledSoftmaxStableInPlace", SOFTMAX_SCALING * 0.1);
}

TEST(PopnnNonLinearity, ComputeSetFormAddsVertices) {
  NnHarness h(2);
  auto x = inputs(FLOAT, 50);
  Tensor a = h.input("a", FLOAT, {50}, x);
  Tensor b = h.input("b", FLOAT, {50}, x);
  ComputeSet cs = h.graph().addComputeSet("nl");
  popnn::nonLinearityInPlace(h.graph(), NonLinearityType::GELU, a, cs);
  float scaling = 0;
  popnn::nonLinearityInPlace(h.graph(), NonLinearityType::RELU, b, scaling, cs);
  EXPECT_EQ(scaling, 1.0f);
  h.prog().add(program::Execute(cs));
  h.output("a", a);
  h.output("b", b);
  h.run();
  expectClose(h.result("a"), ref::nonLinearity(NonLinearityType::GELU, x, 50), 1e-4, "gelu");
  expectClose(h.result("b"), ref::nonLinearity(NonLinearityType::RELU, x, 50), 1e-4, "relu");
}

TEST(PopnnNonLinearity, Shorthands) {
  NnHarness h(2);
  auto x = inputs(FLOAT, 12);
  Tensor in = h.input("x", FLOAT, {2, 6}, x);
  h.output("relu", popnn::relu(h.graph(), in, h.prog()));
  h.output("sigmoid", popnn::sigmoid(h.graph(), in, h.prog()));
  h.output("tanh", popnn::tanh(h.graph(), in, h.prog()));
  h.output("gelu", popnn::gelu(h.graph(), in, h.prog()));
  h.output("softmax", popnn::softmax(h.graph(), in, h.prog()));
  h.output("softmaxStable", popnn::softmaxStable(h.graph(), in, h.prog()));
  h.run();
  expectClose(h.result("relu"), ref::nonLinearity(NonLinearityType::RELU, x, 6), 1e-5, "relu");
  expectClose(h.result("sigmoid"), ref::nonLinearity(NonLinearityType::SIGMOID, x, 6), 1e-4,
              "sigmoid");
  expectClose(h.result("tanh"), ref::nonLinearity(NonLinearityType::TANH, x, 6), 1e-4, "tanh");
  expectClose(h.result("gelu"), ref::nonLinearity(NonLinearityType::GELU, x, 6), 1e-4, "gelu");
  expectClose(h.result("softmax"), ref::nonLinearity(NonLinearityType::SOFTMAX, x, 6), 1e-4,
              "softmax");
  expectClose(h.result("softmaxStable"), ref::nonLinearity(NonLinearityType::SOFTMAX, x, 6), 1e-4,
              "softmaxStable");
}

/// The device gradient against central differences of the reference forward pass at the same
/// inputs.
void gradientsAll(Type type, unsigned tiles) {
  const std::size_t rows = 4, row = 9;
  NnHarness h(tiles);
  auto x = inputs(type, rows * row, 5);
  auto g = hostData(type, rows * row, -1, 1, 6);
  Tensor outGrad = h.input("outGrad", type, {rows, row}, g);
  std::vector<std::vector<double>> acts;
  for (auto t : kAll) {
    // act is rounded to the device type: the finite differences are taken at what it holds.
    auto act = ref::gradientActivations(t, x, row);
    for (auto &a : act)
      a = popsdk::test::roundTo(type, a);
    Tensor a = h.input("act/" + name(t, type), type, {rows, row}, act);
    h.output(name(t, type), popnn::nonLinearityInputGradient(h.graph(), t, a, outGrad, h.prog()));
  }
  h.run();
  for (auto t : kAll) {
    auto want = ref::finiteDifferenceGradient(t, x, g, row);
    expectClose(h.result(name(t, type)), want, type == HALF ? 5e-2 : 1e-3, name(t, type));
  }
}

TEST(PopnnNonLinearity, GradientsMatchFiniteDifferencesFloatOneTile) { gradientsAll(FLOAT, 1); }
TEST(PopnnNonLinearity, GradientsMatchFiniteDifferencesFloatFourTiles) { gradientsAll(FLOAT, 4); }
TEST(PopnnNonLinearity, GradientsMatchFiniteDifferencesHalf) { gradientsAll(HALF, 4); }

// On Poplar's CPU device one tile holds a 784 x 512 float activation, more than twice what one
// MultiVertex's workers split exactly: the lowering gives it several vertices.
TEST(PopnnNonLinearity, ForwardAndGradientOnTheCpuDevicesOneBigTile) {
  const std::size_t rows = 784, row = 512, n = rows * row;
  NnHarness h(Device::createCPUDevice());
  auto x = inputs(FLOAT, n, 7);
  auto g = hostData(FLOAT, n, -1, 1, 8);
  Tensor in = h.input("x", FLOAT, {rows, row}, x);
  Tensor outGrad = h.input("outGrad", FLOAT, {rows, row}, g);
  for (auto t : {NonLinearityType::RELU, NonLinearityType::SIGMOID})
    h.output(name(t, FLOAT), popnn::nonLinearity(h.graph(), t, in, h.prog()));
  // RELU's input gradient is outGrad where the activation is positive, else 0.
  h.output("reluGrad", popnn::nonLinearityInputGradient(h.graph(), NonLinearityType::RELU, in,
                                                        outGrad, h.prog()));
  h.run();
  for (auto t : {NonLinearityType::RELU, NonLinearityType::SIGMOID})
    expectClose(h.result(name(t, FLOAT)), expected(t, x, row), tolerance(FLOAT), name(t, FLOAT));
  std::vector<double> want(n);
  for (std::size_t i = 0; i < n; ++i)
    want[i] = x[i] > 0 ? g[i] : 0;
  expectClose(h.result("reluGrad"), want, tolerance(FLOAT), "reluGrad");
}

TEST(PopnnNonLinearity, GradientInAComputeSetOnAView) {
  NnHarness h(4);
  auto x = inputs(FLOAT, 16 * 6, 7);
  auto g = hostData(FLOAT, 16 * 6, -1, 1, 8);
  Tensor act = h.input("act", FLOAT, {16, 6}, x);
  Tensor outGrad = h.input("outGrad", FLOAT, {16, 6}, g);
  ComputeSet cs = h.graph().addComputeSet("grad");
  Tensor grad = popnn::nonLinearityInputGradient(h.graph(), NonLinearityType::SWISH,
                                                 act.transpose(), outGrad.transpose(), cs);
  h.prog().add(program::Execute(cs));
  h.output("grad", grad.transpose());
  h.run();
  expectClose(h.result("grad"), ref::finiteDifferenceGradient(NonLinearityType::SWISH, x, g, 6),
              1e-3, "swish gradient");
}

void logSoftmaxTest(Type type) {
  NnHarness h(4);
  auto x = inputs(type, 5 * 11, 9);
  Tensor in = h.input("x", type, {5, 11}, x);
  h.output("out", popnn::logSoftmax(h.graph(), in, h.prog()));
  Tensor inPlace = h.input("y", type, {5, 11}, x);
  popnn::logSoftmaxInPlace(h.graph(), inPlace, h.prog());
  h.output("y", inPlace);
  h.run();
  auto want = ref::logSoftmax(x, 11);
  expectClose(h.result("out"), want, tolerance(type), "logSoftmax", 1);
  expectClose(h.result("y"), want, tolerance(type), "logSoftmaxInPlace", 1);
}

TEST(PopnnLogSoftmax, MatchesReferenceFloat) { logSoftmaxTest(FLOAT); }
TEST(PopnnLogSoftmax, MatchesReferenceHalf) { logSoftmaxTest(HALF); }

} // namespace
