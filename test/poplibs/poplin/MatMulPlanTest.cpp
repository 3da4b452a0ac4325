// The matmul planner: plans for a fixed list of problems kept as regression files, the memory
// cap, the cache, and that the created operands and the product use the plan's tiles.
#include "OpHarness.hpp"

#include "poplin/lib/ConvLowering.hpp"
#include "poplin/lib/MatMulPlan.hpp"
#include "poplin/lib/PlanningCache.hpp"

#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace poplar;
using namespace poplin::internal;

namespace {

struct Problem {
  unsigned groups, m, k, n;
  Type type;
};

// Regenerate with POPLIN_UPDATE_PLANS=1 after a deliberate change to the planner or the costs.
// The last six are depthwise 3x3 layers (28x28 to 4x4 outputs) and grouped products with four
// channels per group: the small ones choose the MAC vertex.
TEST(MatMulPlan, PlansMatchRegressionFile) {
  const std::vector<Problem> problems = {
      {1, 1, 1, 1, FLOAT},          {1, 64, 64, 64, FLOAT},      {1, 256, 256, 256, FLOAT},
      {1, 1024, 1024, 1024, FLOAT}, {1, 1024, 1024, 1024, HALF}, {1, 1, 784, 10, FLOAT},
      {1, 16, 784, 10, FLOAT},      {1, 10, 16, 784, FLOAT},     {8, 128, 64, 128, HALF},
      {1, 4096, 16, 16, FLOAT},     {1, 16, 4096, 16, FLOAT},    {1, 2, 100000, 2, FLOAT},
      {64, 784, 9, 1, FLOAT},       {256, 196, 9, 1, HALF},      {256, 49, 9, 1, FLOAT},
      {512, 16, 9, 1, HALF},        {128, 64, 4, 4, FLOAT},      {2048, 49, 4, 4, HALF}};
  const Target target = Target::createIPUTarget(1, "ipu2");
  std::ostringstream report;
  for (const auto &p : problems) {
    MatMulProblem problem;
    problem.groups = p.groups;
    problem.m = p.m;
    problem.k = p.k;
    problem.n = p.n;
    problem.inputType = problem.outputType = p.type;
    printPlan(report, planMatMul(target, problem, MatMulOptions{}), target.getNumTiles());
  }
  const std::string path = std::string(POPLIN_PLANS_DIR) + "/ipu2.txt";
  if (std::getenv("POPLIN_UPDATE_PLANS")) {
    std::ofstream(path) << report.str();
    GTEST_SKIP() << "wrote " << path;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << "missing " << path << " (run with POPLIN_UPDATE_PLANS=1)";
  std::stringstream want;
  want << in.rdbuf();
  EXPECT_EQ(report.str(), want.str()) << "plans changed; if deliberately, regenerate " << path;
}

TEST(MatMulPlan, MemoryCapChangesThePlan) {
  const Target target = Target::createIPUTarget(1, 16, "ipu2");
  MatMulProblem p;
  p.m = p.k = p.n = 256;
  MatMulOptions roomy, tight;
  tight.availableMemoryProportion = 0.05;
  const MatMulPlan a = planMatMul(target, p, roomy), b = planMatMul(target, p, tight);
  EXPECT_LE(b.cost.tempBytes, a.cost.tempBytes);
  EXPECT_LE(a.cost.cycles(), b.cost.cycles());
  EXPECT_TRUE(a.fitsMemory);
}

TEST(MatMulPlan, SplitNeverExceedsTilesAndCoversTheProblem) {
  for (unsigned tiles : {1u, 4u, 13u, 1472u}) {
    const Target target = Target::createIPUTarget(1, tiles, "ipu2");
    for (unsigned size : {1u, 7u, 100u, 1000u}) {
      MatMulProblem p;
      p.m = size;
      p.k = size + 3;
      p.n = size / 2 + 1;
      const MatMulPlan plan = planMatMul(target, p, {});
      EXPECT_LE(plan.split.tiles(), tiles);
      EXPECT_GE(plan.mPerPart() * plan.split.m, p.m);
      EXPECT_LE(plan.split.m, p.m); // no empty part
      EXPECT_LE(plan.split.k, p.k);
      EXPECT_LE(plan.split.n, p.n);
    }
  }
}

// Parts are balanced: they tile the dimension in order and differ by at most one element.
TEST(MatMulPlan, PartsCoverTheDimensionAndDifferByAtMostOne) {
  for (unsigned size : {1u, 7u, 45u, 1024u})
    for (unsigned parts = 1; parts <= size; parts += parts < 30 ? 1 : 97) {
      unsigned next = 0, smallest = size, largest = 0;
      for (unsigned i = 0; i < parts; ++i) {
        const auto r = MatMulPlan::partOf(size, parts, i);
        ASSERT_EQ(r.begin, next) << size << " in " << parts << " parts, part " << i;
        next = r.end;
        smallest = std::min(smallest, r.size());
        largest = std::max(largest, r.size());
      }
      EXPECT_EQ(next, size);
      EXPECT_LE(largest - smallest, 1u) << size << " in " << parts << " parts";
      EXPECT_EQ(largest, MatMulPlan::ceilDiv(size, parts));
    }
}

/// ipu2 with or without supertile exchange-bus sharing.
Target ipu2(bool busSharing) {
  IPUModel model("ipu2");
  model.supportsSuperTileSendReceive = busSharing;
  return model.createTarget();
}

// Pairs of tiles on one exchange bus read a common block when the dimension that tells them
// apart is split an even number of ways; the shared exchange makes the plan cheaper.
TEST(MatMulPlan, TilePairsShareAnOperandBlockWhenTheBusIsShared) {
  MatMulProblem p;
  p.m = p.k = p.n = 1024;
  const MatMulPlan shared = planMatMul(ipu2(true), p, {});
  const MatMulPlan alone = planMatMul(ipu2(false), p, {});
  EXPECT_NE(shared.split.shared, SharedOperand::None);
  EXPECT_EQ(alone.split.shared, SharedOperand::None);
  EXPECT_LT(shared.cost.exchange, alone.cost.exchange);
  for (unsigned tiles : {4u, 13u, 1472u})
    for (unsigned size : {7u, 100u, 1000u}) {
      MatMulProblem q;
      q.m = size;
      q.k = size + 3;
      q.n = size / 2 + 1;
      const MatMulSplit s = planMatMul(Target::createIPUTarget(1, tiles, "ipu2"), q, {}).split;
      if (s.shared == SharedOperand::A) {
        EXPECT_EQ(s.n % 2, 0u) << tiles << " tiles, size " << size;
      } else if (s.shared == SharedOperand::B) {
        EXPECT_EQ(s.m % 2, 0u) << tiles << " tiles, size " << size;
      }
    }
}

// A plan depends on whether the target shares exchange buses, so the cache tells them apart.
TEST(MatMulPlan, CacheKeepsPlansForTargetsWithAndWithoutBusSharingApart) {
  poplin::PlanningCache cache;
  MatMulProblem p;
  p.m = p.k = p.n = 1024;
  p.inputType = p.outputType = FLOAT;
  const MatMulPlan &shared = getMatMulPlan(ipu2(true), p, {}, &cache);
  const MatMulPlan &alone = getMatMulPlan(ipu2(false), p, {}, &cache);
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_NE(shared.split.shared, alone.split.shared);
}

// A convolution's A is its input viewed as im2col where createInput spread it, not laid out by
// the plan: tile pairs may share the weights' block but not A's. The same product with A laid
// out by the plan does share it, so the check can fail.
TEST(MatMulPlan, ConvolutionsGatheredInputIsNotSharedByTilePairs) {
  const Target target = Target::createIPUTarget(1, 4, "ipu2");
  const poplin::ConvParams conv(FLOAT, 1, {28, 28}, {3, 3}, 16, 16, 1);
  const MatMulProblem gathered = matMulProblemOf(conv);
  MatMulProblem laidOut = gathered;
  laidOut.lhsInPlanLayout = true;
  EXPECT_EQ(planMatMul(target, laidOut, {}).split.shared, SharedOperand::A);
  EXPECT_NE(planMatMul(target, gathered, {}).split.shared, SharedOperand::A);
  for (unsigned tiles : {4u, 16u, 1472u})
    for (std::size_t chans : {1u, 16u})
      for (std::size_t kernel : {1u, 3u, 5u}) {
        const poplin::ConvParams p(FLOAT, 8, {28, 28}, {kernel, kernel}, chans, 16, 1);
        EXPECT_NE(planMatMul(Target::createIPUTarget(1, tiles, "ipu2"), matMulProblemOf(p), {})
                      .split.shared,
                  SharedOperand::A)
            << tiles << " tiles, " << chans << " channels, kernel " << kernel;
      }
}

TEST(MatMulPlan, CacheHoldsOnePlanPerProblem) {
  popsdk::test::OpHarness h(4);
  poplin::addCodelets(h.graph());
  poplin::PlanningCache cache;
  std::set<poplin::MatMulPlanParams> params;
  OptionFlags options;
  const Target &target = h.target();
  params.insert({&target, poplin::MatMulParams{FLOAT, FLOAT, {8, 16}, {16, 4}}, &options});
  params.insert({&target, poplin::MatMulParams{HALF, HALF, {8, 16}, {16, 4}}, &options});
  poplin::preplanMatMuls(params, cache);
  EXPECT_EQ(cache.size(), 2u);
  Tensor a = poplin::createMatMulInputLHS(h.graph(), FLOAT, {8, 16}, {16, 4}, "a", {}, &cache);
  Tensor b = poplin::createMatMulInputRHS(h.graph(), FLOAT, {8, 16}, {16, 4}, "b", {}, &cache);
  poplin::matMul(h.graph(), a, b, h.prog(), "mm", {}, &cache);
  EXPECT_EQ(cache.size(), 2u); // all found in the cache
  std::ostringstream os;
  poplin::matMulReportPlan(os, h.graph(), FLOAT, FLOAT, {8, 16}, {16, 4}, {}, &cache);
  EXPECT_NE(os.str().find("Tiles:"), std::string::npos);
}

TEST(MatMulPlan, CreatedOperandsAreMappedAndNeedNoExchangeOfTheirOwn) {
  popsdk::test::OpHarness h(16);
  poplin::addCodelets(h.graph());
  Tensor a = poplin::createMatMulInputLHS(h.graph(), FLOAT, {64, 48}, {48, 40}, "a");
  Tensor b = poplin::createMatMulInputRHS(h.graph(), FLOAT, {64, 48}, {48, 40}, "b");
  Tensor c = poplin::createMatMulOutput(h.graph(), FLOAT, {64, 48}, {48, 40}, "c");
  for (const Tensor &t : {a, b, c}) {
    std::size_t mapped = 0;
    for (const auto &tile : h.graph().getTileMapping(t))
      for (const auto &interval : tile)
        mapped += interval.size();
    EXPECT_EQ(mapped, t.numElements());
  }
}

} // namespace
