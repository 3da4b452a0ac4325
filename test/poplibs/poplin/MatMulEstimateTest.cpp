// The planner's cost model against the simulated IPU: a plan's estimated cycles (exchange,
// partials, reduction) are what the lowered product takes, for splits where the model once
// missed a cost.
#include "OpHarness.hpp"

#include "poplin/lib/MatMulLowering.hpp"
#include "poplin/lib/MatMulPlan.hpp"

#include <poplin/codelets.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

using namespace poplar;
using namespace poplin::internal;
using popsdk::test::OpHarness;

namespace {

// The estimate is within this share of the simulated cycles.
constexpr double kTolerance = 0.05;

struct Case {
  const char *what;
  unsigned tiles, m, k, n;
  Type type;
  MatMulSplit split;
};

void expectEstimateMatchesSimulation(const Case &c) {
  OpHarness h(c.tiles);
  poplin::addCodelets(h.graph());
  MatMulPlan plan;
  plan.problem.m = c.m;
  plan.problem.k = c.k;
  plan.problem.n = c.n;
  plan.problem.inputType = c.type;
  plan.problem.outputType = FLOAT;
  plan.partialsType = FLOAT;
  plan.split = c.split;
  plan.split.shared = sharedOperandOf(h.target(), plan.problem, plan.split);
  plan.method = MatMulMethod::Amp;
  plan.cost = costOf(h.target(), plan.problem, plan.partialsType, plan.split, plan.method);
  Tensor A = createOperand(h.graph(), plan, MatMulOperand::LHS, c.type, "a");
  Tensor B = createOperand(h.graph(), plan, MatMulOperand::RHS, c.type, "b");
  Tensor C = createOperand(h.graph(), plan, MatMulOperand::Output, FLOAT, "c");
  addMatMul(h.graph(), plan, A, B, C, h.prog(), "mm");
  h.run();
  const double simulated = double(h.cycles()), estimated = double(plan.cost.cycles());
  std::cout << "[cycles] " << c.what << ": simulated " << simulated << ", estimated " << estimated
            << "\n";
  EXPECT_LT(std::fabs(estimated - simulated) / simulated, kTolerance)
      << c.what << ": simulated " << simulated << " cycles, estimated " << estimated;
}

// Half operands split so that the rows of an A block are 51 halves (102 bytes): the compiler
// aligns each row on a tile to 4 bytes, so the block's holder cannot read it in place and
// copies it besides sending it. The planner priced only the sends.
TEST(MatMulEstimate, Regression_HolderCopiesAFragmentedHalfBlock) {
  expectEstimateMatchesSimulation(
      {"[128 x 102] x [102 x 32] half, split M 2 N 2 K 2", 8, 128, 102, 32, HALF, {1, 2, 2, 2}});
}

// N = 81 in two parts of 41 and 40 output channels: 41 make six AMP chunks (one a worker), 40
// make five, so its workers share positions and each runs every chunk's passes: the smaller
// part is the slower tile. The planner priced only the larger part.
TEST(MatMulEstimate, Regression_SmallerPartIsTheSlowerTile) {
  expectEstimateMatchesSimulation(
      {"[96 x 32] x [32 x 81] float, split M 2 N 2", 4, 96, 32, 81, FLOAT, {1, 2, 2, 1}});
}

// The chosen split of a mid-sized float product, with a reduction over K parts.
TEST(MatMulEstimate, ReducedProduct) {
  expectEstimateMatchesSimulation(
      {"[96 x 256] x [256 x 96] float, split M 2 N 2 K 4", 16, 96, 256, 96, FLOAT, {1, 2, 2, 4}});
}

// Pairs of M parts on one exchange bus read their common B block once (the planner's choice for
// an even M split and an odd N split).
TEST(MatMulEstimate, TilePairsShareTheirBBlock) {
  expectEstimateMatchesSimulation(
      {"[96 x 256] x [256 x 96] float, split M 2 N 3 K 2", 12, 96, 256, 96, FLOAT, {1, 2, 3, 2}});
}

} // namespace
