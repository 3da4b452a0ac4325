// poplin convolutions against the host reference: forward, input gradients (getGradientParams
// with transposed and flipped weights) and weight gradients, over 1x1, odd, batch 1, grouped,
// strided, padded and dilated convolutions, float and half, on 1, 4 and 1472 tiles.
#include "Conv.hpp"
#include "ConvTestSupport.hpp"
#include "ExpectThrows.hpp"
#include "OpHarness.hpp"

#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/codelets.hpp>

#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

using namespace poplar;
using namespace popsdk::test;
using poplin::ConvParams;

namespace {

using Case = ConvCase;

class Convolution : public testing::TestWithParam<Case> {};

TEST_P(Convolution, ForwardMatchesReference) {
  const auto &c = GetParam();
  const ConvParams &p = c.params;
  OpHarness h(c.tiles);
  poplin::addCodelets(h.graph());
  const auto in = hostData(p.inputType, count(inputShape(p)), -1, 1, 1);
  const auto w = hostData(p.inputType, count(weightsShape(p)), -1, 1, 2);
  Tensor tin = poplin::createInput(h.graph(), p, "in");
  Tensor tw = poplin::createWeights(h.graph(), p, "w");
  h.write("in", tin, in);
  h.write("w", tw, w);
  Tensor out = poplin::convolution(h.graph(), tin, tw, p, false, h.prog(), "conv");
  ASSERT_EQ(out.shape(), outputShape(p));
  h.output("out", out);
  h.run();
  expectClose(h.result("out"), popsdk::reference::convolution(p, in, w), p.inputType, "out");
}

TEST_P(Convolution, InputGradientMatchesReference) {
  const auto &c = GetParam();
  const ConvParams &p = c.params;
  OpHarness h(c.tiles);
  poplin::addCodelets(h.graph());
  const ConvParams bwd = poplin::getGradientParams(p);
  const auto dOut = hostData(p.inputType, count(outputShape(p)), -1, 1, 3);
  const auto w = hostData(p.inputType, count(weightsShape(p)), -1, 1, 2);
  Tensor tdOut = poplin::createInput(h.graph(), bwd, "dOut");
  ASSERT_EQ(tdOut.shape(), outputShape(p));
  Tensor tw = poplin::createWeights(h.graph(), p, "w");
  h.write("dOut", tdOut, dOut);
  h.write("w", tw, w);
  Tensor dIn = poplin::convolution(h.graph(), tdOut, tw, bwd, true, h.prog(), "bwd");
  ASSERT_EQ(dIn.shape(), inputShape(p));
  h.output("dIn", dIn);
  h.run();
  expectClose(h.result("dIn"), popsdk::reference::convolutionInputGrad(p, dOut, w), p.inputType,
              "dIn");
}

TEST_P(Convolution, WeightGradientMatchesReference) {
  const auto &c = GetParam();
  const ConvParams &p = c.params;
  OpHarness h(c.tiles);
  poplin::addCodelets(h.graph());
  const auto in = hostData(p.inputType, count(inputShape(p)), -1, 1, 1);
  const auto dOut = hostData(p.inputType, count(outputShape(p)), -1, 1, 3);
  Tensor tin = poplin::createInput(h.graph(), p, "in");
  Tensor tdOut = h.input("dOut", p.outputType, outputShape(p), dOut);
  h.write("in", tin, in);
  Tensor dW = poplin::calculateWeightDeltas(h.graph(), tdOut, tin, p, h.prog(), "wu");
  ASSERT_EQ(dW.shape(), weightsShape(p));
  h.output("dW", dW);
  h.run();
  expectClose(h.result("dW"), popsdk::reference::convolutionWeightGrad(p, dOut, in), p.inputType,
              "dW");
}

ConvParams withTransforms(ConvParams p, std::vector<unsigned> padding, std::vector<unsigned> stride,
                          std::vector<unsigned> kernelDilation) {
  const std::size_t d = p.getNumFieldDims();
  p.inputTransform.paddingLower = padding;
  p.inputTransform.paddingUpper = padding;
  p.outputTransform.stride = stride;
  p.kernelTransform.dilation = kernelDilation;
  (void)d;
  p.validate();
  return p;
}

std::vector<Case> cases() {
  return {
      {"pointwise", 1, ConvParams(FLOAT, 2, {5, 5}, {1, 1}, 3, 4, 1)},
      {"odd3x3", 4, ConvParams(FLOAT, 2, {7, 6}, {3, 3}, 3, 5, 1)},
      {"batch1", 4, ConvParams(FLOAT, 1, {6, 6}, {3, 2}, 2, 3, 1)},
      {"grouped", 4, ConvParams(FLOAT, 2, {5, 5}, {3, 3}, 2, 3, 3)},
      {"depthwise", 4, ConvParams(FLOAT, 1, {6, 6}, {3, 3}, 1, 1, 4)},
      {"padded", 4,
       withTransforms(ConvParams(FLOAT, 2, {6, 6}, {3, 3}, 3, 4, 1), {1, 1}, {1, 1}, {1, 1})},
      {"strided", 4,
       withTransforms(ConvParams(FLOAT, 2, {9, 8}, {3, 3}, 2, 3, 1), {1, 1}, {2, 2}, {1, 1})},
      {"dilated", 4,
       withTransforms(ConvParams(FLOAT, 1, {9, 9}, {3, 3}, 2, 2, 1), {0, 0}, {1, 1}, {2, 2})},
      {"conv1d", 4, withTransforms(ConvParams(FLOAT, 3, {11}, {4}, 3, 2, 1), {2}, {3}, {1})},
      {"half", 4,
       withTransforms(ConvParams(HALF, 2, {6, 6}, {3, 3}, 4, 8, 1), {1, 1}, {1, 1}, {1, 1})},
      {"fullIpu", 1472,
       withTransforms(ConvParams(FLOAT, 4, {14, 14}, {3, 3}, 8, 16, 1), {1, 1}, {2, 2}, {1, 1})},
  };
}

INSTANTIATE_TEST_SUITE_P(Shapes, Convolution, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case> &info) {
                           return std::string(info.param.name) + "_" +
                                  std::to_string(info.param.tiles) + "tiles";
                         });

TEST(ConvolutionForwardOnly, InputDilationFlipAndOutputPadding) {
  ConvParams p(FLOAT, 1, {5, 4}, {2, 2}, 2, 3, 1);
  p.inputTransform.dilation = {2, 1};
  p.inputTransform.flip = {false, true};
  p.inputTransform.truncationLower = {1, 0};
  p.kernelTransform.flip = {true, false};
  p.outputTransform.paddingLower = {1, 0};
  p.outputTransform.paddingUpper = {0, 2};
  p.outputTransform.truncationUpper = {1, 0};
  p.validate();
  OpHarness h(4);
  poplin::addCodelets(h.graph());
  const auto in = hostData(FLOAT, count(inputShape(p)), -1, 1, 1);
  const auto w = hostData(FLOAT, count(weightsShape(p)), -1, 1, 2);
  Tensor tin = h.input("in", FLOAT, inputShape(p), in);
  Tensor tw = h.input("w", FLOAT, weightsShape(p), w);
  Tensor out = poplin::convolution(h.graph(), tin, tw, p, false, h.prog(), "conv");
  ASSERT_EQ(out.shape(), outputShape(p));
  h.output("out", out);
  h.run();
  expectClose(h.result("out"), popsdk::reference::convolution(p, in, w), FLOAT, "out");
}

TEST(ConvolutionUpdates, WeightAndBiasUpdatesAndAddBias) {
  ConvParams p(FLOAT, 2, {5, 5}, {3, 3}, 2, 3, 1);
  OpHarness h(4);
  poplin::addCodelets(h.graph());
  const auto in = hostData(FLOAT, count(inputShape(p)), -1, 1, 1);
  const auto w = hostData(FLOAT, count(weightsShape(p)), -1, 1, 2);
  const auto dOut = hostData(FLOAT, count(outputShape(p)), -1, 1, 3);
  Tensor tin = h.input("in", FLOAT, inputShape(p), in);
  Tensor tw = poplin::createWeights(h.graph(), p, "w");
  h.write("w", tw, w);
  Tensor tdOut = h.input("dOut", FLOAT, outputShape(p), dOut);
  Tensor acts = poplin::convolution(h.graph(), tin, tw, p, false, h.prog(), "fwd");
  Tensor bias = poplin::createBiases(h.graph(), acts);
  h.write("bias", bias, {0.5, -1, 2});
  poplin::addBias(h.graph(), acts, bias, h.prog());
  poplin::convolutionWeightUpdate(h.graph(), tdOut, tw, tin, p, -0.5f, h.prog());
  poplin::convolutionBiasUpdate(h.graph(), tdOut, bias, 0.25f, {}, h.prog());
  h.output("acts", acts);
  h.output("w", tw);
  h.output("bias", bias);
  h.run();
  auto wantActs = popsdk::reference::convolution(p, in, w);
  const std::size_t field = wantActs.size() / (p.batchSize * 3);
  const double b0[3] = {0.5, -1, 2};
  for (std::size_t i = 0; i < wantActs.size(); ++i)
    wantActs[i] += b0[(i / field) % 3];
  expectClose(h.result("acts"), wantActs, FLOAT, "acts");
  auto wantW = popsdk::reference::convolutionWeightGrad(p, dOut, in);
  for (std::size_t i = 0; i < wantW.size(); ++i)
    wantW[i] = w[i] - 0.5 * wantW[i];
  expectClose(h.result("w"), wantW, FLOAT, "weights");
  for (unsigned c = 0; c < 3; ++c) {
    double sum = 0;
    for (std::size_t b = 0; b < p.batchSize; ++b)
      for (std::size_t i = 0; i < field; ++i)
        sum += dOut[(b * 3 + c) * field + i];
    EXPECT_NEAR(h.result("bias")[c], b0[c] + 0.25 * sum, 1e-5) << "bias " << c;
  }
}

TEST(ConvolutionErrors, BadParametersAndTensors) {
  using popsdk::test::OpHarness;
  expectThrowsWith<poputil::poplibs_error>(
      [] {
        ConvParams(FLOAT, 1, {3, 3}, {5, 1}, 1, 1, 1);
      },
      {"poplin::ConvParams", "kernel", "larger than the input", "dimension 0"});
  expectThrowsWith<poputil::poplibs_error>(
      [] {
        ConvParams(FLOAT, 1, {3, 3}, {1}, 1, 1, 1);
      },
      {"poplin::ConvParams", "kernel has 1 dimensions", "field has 2"});
  expectThrowsWith<poputil::poplibs_error>(
      [] {
        ConvParams p(FLOAT, 1, {5}, {1}, 1, 1, 1);
        p.outputTransform.stride = {0};
        p.validate();
      },
      {"stride is 0"});
  OpHarness h(4);
  poplin::addCodelets(h.graph());
  ConvParams p(FLOAT, 2, {5, 5}, {3, 3}, 2, 3, 1);
  Tensor in = h.graph().addVariable(FLOAT, {2, 3, 5, 5});
  h.graph().setTileMapping(in, 0);
  Tensor w = poplin::createWeights(h.graph(), p);
  expectThrowsWith<poputil::poplibs_error>(
      [&] { poplin::convolution(h.graph(), in, w, p, false, h.prog()); },
      {"poplin::convolution", "input", "{2,3,5,5}", "{2,2,5,5}"});
  Tensor halfIn = h.graph().addVariable(HALF, {2, 2, 5, 5});
  h.graph().setTileMapping(halfIn, 0);
  expectThrowsWith<poputil::poplibs_error>(
      [&] { poplin::convolution(h.graph(), halfIn, w, p, false, h.prog()); },
      {"poplin::convolution", "input is half", "float"});
  expectThrowsWith<poplar::invalid_option>(
      [&] {
        poplin::createWeights(h.graph(), p, "w", {{"pass", "SIDEWAYS"}});
      },
      {"pass", "SIDEWAYS"});
  Tensor acts = h.graph().addVariable(FLOAT, {2, 3, 4});
  Tensor badBias = h.graph().addVariable(FLOAT, {4});
  expectThrowsWith<poputil::poplibs_error>(
      [&] { poplin::addBias(h.graph(), acts, badBias, h.prog()); },
      {"poplin::addBias", "{4}", "{2,3,4}"});
}

TEST(ConvolutionPlan, ReportAndPerfectCycles) {
  OpHarness h(16);
  ConvParams p(FLOAT, 4, {8, 8}, {3, 3}, 16, 16, 1);
  std::ostringstream os;
  poplin::reportPlanInfo(os, h.graph(), p);
  EXPECT_NE(os.str().find("[144 x 144] x [144 x 16]"), std::string::npos) << os.str();
  EXPECT_EQ(poplin::getFwdFlops(p), 2ull * 4 * 16 * 16 * 9 * 36);
  EXPECT_DOUBLE_EQ(poplin::getFwdPerfectCycleCount(h.graph(), p),
                   double(4 * 16 * 16 * 9 * 36) / (16 * 16));
  const auto costs = poplin::reportPlanEstimatedCosts(h.graph(), p);
  EXPECT_GT(costs.cycles, 0u);
  EXPECT_GT(costs.memory, 0u);
}

} // namespace

// Padding a small input by 2^32 - 1 in two dimensions makes an output field of (2^32 + 3)^2
// positions, more than a size_t counts: lowering refuses it by name instead of wrapping.
TEST(ConvolutionErrors, Regression_OutputFieldWhoseSizeOverflows) {
  OpHarness h(4);
  poplin::addCodelets(h.graph());
  ConvParams p(FLOAT, 1, {4, 4}, {1, 1}, 1, 1, 1);
  p.inputTransform.paddingUpper = {0xffffffffu, 0xffffffffu};
  // Planning (createWeights) already multiplies the output field out.
  expectThrowsWith<overflow_error>(
      [&] {
        Tensor in = poplin::createInput(h.graph(), p);
        Tensor w = poplin::createWeights(h.graph(), p);
        poplin::convolution(h.graph(), in, w, p, false, h.prog());
      },
      {"poplin convolution", "{4294967299,4294967299}", "has more elements than a size_t holds"});
}
