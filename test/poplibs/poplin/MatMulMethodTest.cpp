// The planner's choice between the AMP (ConvPartial1x1Out) and MAC (ConvPartialHorizontalMac)
// vertices: which shapes choose which, and that either method, forced or chosen, computes
// grouped matmuls and depthwise convolutions that match the host reference.
#include "Conv.hpp"
#include "MatMul.hpp"
#include "OpHarness.hpp"

#include "poplin/lib/MatMulLowering.hpp"
#include "poplin/lib/MatMulPlan.hpp"

#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <sstream>

using namespace poplar;
using namespace poplin::internal;
using popsdk::test::OpHarness;

namespace {

MatMulProblem problemOf(unsigned groups, unsigned m, unsigned k, unsigned n, Type type) {
  MatMulProblem p;
  p.groups = groups;
  p.m = m;
  p.k = k;
  p.n = n;
  p.inputType = p.outputType = type;
  return p;
}

TEST(MatMulMethod, SmallDepthwiseAndFewChannelGroupsChooseMacLargeBlocksAmp) {
  const Target target = Target::createIPUTarget(1, "ipu2");
  // 3x3 depthwise layers folded to [G][positions][9] x [G][9][1] with 7x7 and smaller outputs,
  // and grouped products with two to four channels per group: a tile holds several groups of
  // a few positions, where the AMP's per-pass cost is not amortised.
  for (const MatMulProblem &p : {problemOf(256, 49, 9, 1, FLOAT), problemOf(512, 16, 9, 1, HALF),
                                 problemOf(1024, 4, 9, 1, FLOAT), problemOf(128, 64, 4, 4, FLOAT),
                                 problemOf(512, 16, 2, 2, HALF)}) {
    const MatMulPlan plan = planMatMul(target, p, {});
    EXPECT_EQ(plan.method, MatMulMethod::Mac)
        << "G" << p.groups << " " << p.m << "x" << p.k << "x" << p.n;
    // The chosen method is the cheaper of the two for the chosen split.
    EXPECT_LE(plan.cost.cycles(),
              costOf(target, p, plan.partialsType, plan.split, MatMulMethod::Amp).cycles());
  }
  // Many positions per tile amortise the AMP's passes: 28x28 depthwise, dense products.
  for (const MatMulProblem &p :
       {problemOf(64, 784, 9, 1, FLOAT), problemOf(2048, 49, 4, 4, HALF),
        problemOf(1, 1024, 1024, 1024, FLOAT), problemOf(1, 256, 256, 256, HALF)})
    EXPECT_EQ(planMatMul(target, p, {}).method, MatMulMethod::Amp)
        << "G" << p.groups << " " << p.m << "x" << p.k << "x" << p.n;
}

struct Forced {
  unsigned tiles, groups, m, k, n;
  Type type;
  const char *partials;
  MatMulMethod method;
};

class ForcedMethod : public testing::TestWithParam<Forced> {};

// The lowering builds whichever vertex the plan names; both compute the same product.
TEST_P(ForcedMethod, MatchesReference) {
  const Forced c = GetParam();
  OpHarness h(c.tiles);
  poplin::addCodelets(h.graph());
  MatMulProblem p = problemOf(c.groups, c.m, c.k, c.n, c.type);
  MatMulOptions options;
  options.partialsType = std::string(c.partials) == "half" ? HALF : FLOAT;
  const MatMulPlan plan = planMatMul(h.target(), p, options, c.method);
  ASSERT_EQ(plan.method, c.method);
  const auto a = popsdk::test::hostData(c.type, c.groups * c.m * c.k, -2, 2, 1);
  const auto b = popsdk::test::hostData(c.type, c.groups * c.k * c.n, -2, 2, 2);
  Tensor A = h.input("a", c.type, {c.groups, c.m, c.k}, a);
  Tensor B = h.input("b", c.type, {c.groups, c.k, c.n}, b);
  Tensor C = createOperand(h.graph(), plan, MatMulOperand::Output, c.type, "c");
  addMatMul(h.graph(), plan, A, B, C, h.prog(), "mm");
  h.output("c", C);
  h.run();
  const auto want = popsdk::reference::matMul(a, b, c.groups, c.m, c.k, c.n);
  const auto &got = h.result("c");
  const double eps = c.type == HALF ? std::ldexp(1.0, -10) : std::ldexp(1.0, -23);
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want.values[i],
                eps * (want.magnitude[i] * (c.k / 16 + 2) + std::fabs(want.values[i])) + 1e-9)
        << "element " << i;
}

INSTANTIATE_TEST_SUITE_P(Shapes, ForcedMethod,
                         testing::Values(Forced{4, 12, 20, 9, 1, FLOAT, "float", MatMulMethod::Mac},
                                         Forced{4, 12, 20, 9, 1, FLOAT, "float", MatMulMethod::Amp},
                                         Forced{4, 5, 7, 13, 6, FLOAT, "float", MatMulMethod::Mac},
                                         Forced{1, 3, 33, 40, 9, FLOAT, "float", MatMulMethod::Mac},
                                         Forced{4, 16, 9, 9, 3, HALF, "float", MatMulMethod::Mac},
                                         Forced{4, 16, 9, 9, 3, HALF, "half", MatMulMethod::Mac},
                                         Forced{4, 16, 9, 9, 3, HALF, "half", MatMulMethod::Amp}),
                         [](const testing::TestParamInfo<Forced> &info) {
                           const Forced &c = info.param;
                           std::ostringstream os;
                           os << methodName(c.method) << "_" << c.tiles << "tiles_g" << c.groups
                              << "_" << c.m << "x" << c.k << "x" << c.n << "_" << c.type << "_"
                              << c.partials;
                           return os.str();
                         });

// A late-stage depthwise convolution (2x2 outputs) through the public API: the plan chooses MAC
// and the result matches the host reference.
TEST(MatMulMethod, DepthwiseConvolutionChoosesMacAndMatchesReference) {
  for (Type type : {FLOAT, HALF}) {
    const poplin::ConvParams p(type, 1, {4, 4}, {3, 3}, 1, 1, 96);
    OpHarness h(16);
    poplin::addCodelets(h.graph());
    std::ostringstream report;
    poplin::reportPlanInfo(report, h.graph(), p);
    EXPECT_NE(report.str().find("Method: MAC"), std::string::npos) << report.str();
    const std::size_t inElems = 96 * 16, wElems = 96 * 9;
    const auto in = popsdk::test::hostData(type, inElems, -1, 1, 1);
    const auto w = popsdk::test::hostData(type, wElems, -1, 1, 2);
    Tensor tin = poplin::createInput(h.graph(), p, "in");
    Tensor tw = poplin::createWeights(h.graph(), p, "w");
    h.write("in", tin, in);
    h.write("w", tw, w);
    Tensor out = poplin::convolution(h.graph(), tin, tw, p, false, h.prog(), "conv");
    h.output("out", out);
    h.run();
    const auto want = popsdk::reference::convolution(p, in, w);
    const auto &got = h.result("out");
    ASSERT_EQ(got.size(), want.size());
    const double tol = type == HALF ? 1e-2 : 1e-5;
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_NEAR(got[i], want[i], tol) << type << " element " << i;
  }
}

} // namespace

namespace {

std::uint64_t measuredCycles(unsigned tiles, const MatMulProblem &p, MatMulMethod method) {
  OpHarness h(tiles);
  poplin::addCodelets(h.graph());
  const MatMulPlan plan = planMatMul(h.target(), p, {}, method);
  Tensor A = createOperand(h.graph(), plan, MatMulOperand::LHS, p.inputType, "a");
  Tensor B = createOperand(h.graph(), plan, MatMulOperand::RHS, p.inputType, "b");
  Tensor C = createOperand(h.graph(), plan, MatMulOperand::Output, p.outputType, "c");
  addMatMul(h.graph(), plan, A, B, C, h.prog(), "mm");
  h.run();
  return h.cycles();
}

// Where the planner chooses MAC, the simulated IPU agrees: the whole product (exchange,
// partials, cast) takes fewer cycles than with the AMP vertex on the same planner's best split.
TEST(MatMulMethod, ChosenMacIsFasterOnTheDevice) {
  for (const MatMulProblem &p : {problemOf(256, 49, 9, 1, FLOAT), problemOf(512, 16, 9, 1, HALF),
                                 problemOf(128, 64, 4, 4, FLOAT)}) {
    const std::uint64_t mac = measuredCycles(1472, p, MatMulMethod::Mac);
    const std::uint64_t amp = measuredCycles(1472, p, MatMulMethod::Amp);
    std::cout << "[cycles] G" << p.groups << " " << p.m << "x" << p.k << "x" << p.n << " "
              << p.inputType << ": MAC " << mac << ", AMP " << amp << "\n";
    EXPECT_LT(mac, amp) << "G" << p.groups << " " << p.m << "x" << p.k << "x" << p.n;
  }
}

} // namespace
