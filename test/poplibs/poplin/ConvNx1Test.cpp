// poplin's ConvPartialnx1 lowering (a kernel walked on the tile): its product against the host
// reference over kernels, transforms, groups, types and tile counts, and the convolution choosing
// it, faster than im2col, where the input's exchange dominates.
#include "Conv.hpp"
#include "ConvTestSupport.hpp"
#include "HostData.hpp"
#include "OpHarness.hpp"

#include "poplin/lib/ConvLowering.hpp"
#include "poplin/lib/ConvNx1Lowering.hpp"
#include "poplin/lib/MatMulLowering.hpp"

#include <poplin/Convolution.hpp>
#include <poplin/codelets.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace poplar;
using namespace popsdk::test;
using poplin::ConvParams;

namespace {

using Case = ConvCase;

ConvParams transformed(ConvParams p, std::vector<unsigned> padding, std::vector<unsigned> stride,
                       std::vector<unsigned> kernelDilation) {
  p.inputTransform.paddingLower = padding;
  p.inputTransform.paddingUpper = padding;
  p.outputTransform.stride = stride;
  p.kernelTransform.dilation = kernelDilation;
  p.validate();
  return p;
}

ConvParams everyTransform() {
  ConvParams p(FLOAT, 1, {5, 4}, {2, 2}, 2, 3, 1);
  p.inputTransform.dilation = {2, 1};
  p.inputTransform.flip = {false, true};
  p.inputTransform.truncationLower = {1, 0};
  p.kernelTransform.flip = {true, false};
  p.outputTransform.truncationLower = {0, 1};
  p.outputTransform.truncationUpper = {1, 0};
  p.validate();
  return p;
}

class ConvNx1Lowering : public testing::TestWithParam<Case> {};

// The nx1 product, viewed as the output (before output padding), equals the reference.
TEST_P(ConvNx1Lowering, MatchesReference) {
  const auto &c = GetParam();
  const ConvParams &p = c.params;
  OpHarness h(c.tiles);
  poplin::addCodelets(h.graph());
  const auto in = hostData(p.inputType, count(inputShape(p)), -1, 1, 1);
  const auto w = hostData(p.inputType, count(weightsShape(p)), -1, 1, 2);
  Tensor tin = h.input("in", p.inputType, inputShape(p), in);
  Tensor tw = h.input("w", p.inputType, weightsShape(p), w);
  const auto plan =
      poplin::internal::planConvNx1(h.target(), p, poplin::internal::MatMulOptions{}, UINT64_MAX);
  ASSERT_TRUE(plan);
  const Tensor product = poplin::internal::addConvNx1(h.graph(), *plan, tin, tw, h.prog(), "nx1");
  h.output("out", poplin::internal::outputFromMatrix(p, product));
  h.run();
  expectClose(h.result("out"), popsdk::reference::convolution(p, in, w), p.inputType);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, ConvNx1Lowering,
    testing::Values(
        Case{"odd3x3", 4, ConvParams(FLOAT, 2, {7, 6}, {3, 3}, 3, 5, 1)},
        Case{"grouped", 4, ConvParams(FLOAT, 2, {5, 5}, {3, 3}, 2, 3, 3)},
        Case{"padded5x5", 4,
             transformed(ConvParams(FLOAT, 2, {8, 8}, {5, 5}, 16, 12, 1), {2, 2}, {1, 1}, {1, 1})},
        Case{"strided", 4,
             transformed(ConvParams(FLOAT, 2, {9, 8}, {3, 3}, 2, 3, 1), {1, 1}, {2, 2}, {1, 1})},
        Case{"dilated", 4,
             transformed(ConvParams(FLOAT, 1, {9, 9}, {3, 3}, 2, 2, 1), {0, 0}, {1, 1}, {2, 2})},
        Case{"conv1d", 4, transformed(ConvParams(FLOAT, 3, {11}, {4}, 3, 2, 1), {2}, {3}, {1})},
        Case{"kernel3x1", 2, ConvParams(FLOAT, 1, {9, 5}, {3, 1}, 20, 9, 1)},
        Case{"everyTransform", 4, everyTransform()},
        Case{"halfFloatPartials", 4,
             transformed(ConvParams(HALF, 2, {6, 6}, {3, 3}, 4, 8, 1), {1, 1}, {1, 1}, {1, 1})},
        Case{
            "fullIpu", 1472,
            transformed(ConvParams(FLOAT, 4, {14, 14}, {3, 3}, 8, 16, 1), {1, 1}, {2, 2}, {1, 1})}),
    [](const testing::TestParamInfo<Case> &info) { return std::string(info.param.name); });

// On a few tiles a 3x3 layer's im2col sends each input element to nine positions of A; walking
// the kernel on the tile receives it once. The convolution picks nx1 and runs faster than the
// im2col product of the same layer.
TEST(ConvNx1Choice, FasterThanIm2colWhereExchangeDominates) {
  const ConvParams p =
      transformed(ConvParams(FLOAT, 1, {28, 28}, {3, 3}, 16, 16, 1), {1, 1}, {1, 1}, {1, 1});
  const auto in = hostData(FLOAT, count(inputShape(p)), -1, 1, 1);
  const auto w = hostData(FLOAT, count(weightsShape(p)), -1, 1, 2);
  std::uint64_t cycles[2];
  for (bool im2col : {false, true}) {
    OpHarness h(4);
    poplin::addCodelets(h.graph());
    Tensor tin = poplin::createInput(h.graph(), p, "in");
    Tensor tw = poplin::createWeights(h.graph(), p, "w");
    h.write("in", tin, in);
    h.write("w", tw, w);
    Tensor out;
    if (im2col) {
      namespace pi = poplin::internal;
      const auto plan = pi::planMatMul(h.target(), pi::matMulProblemOf(p), pi::MatMulOptions{});
      Tensor product = pi::createOperand(h.graph(), plan, pi::MatMulOperand::Output, FLOAT, "out");
      pi::addMatMul(h.graph(), plan, pi::inputAsMatrix(h.graph(), p, tin),
                    pi::weightsAsMatrix(h.graph(), p, tw), product, h.prog(), "im2col");
      out = pi::outputFromMatrix(p, product);
    } else {
      out = poplin::convolution(h.graph(), tin, tw, p, false, h.prog(), "conv");
    }
    h.output("out", out);
    h.run();
    expectClose(h.result("out"), popsdk::reference::convolution(p, in, w), FLOAT);
    cycles[im2col] = h.cycles();
  }
  std::cout << "[cycles] convolution " << cycles[0] << ", im2col " << cycles[1] << "\n";
  EXPECT_LT(cycles[0], cycles[1]);
}

} // namespace
