// The reduction vertices' cycle estimators (poplibs/popops/lib/ReduceCycles.hpp): PopLibs'
// formulas worked by hand for small cases, and how they grow.
#include "ReduceCycles.hpp"
#include "OpHarness.hpp"
#include "VertexTester.hpp"

#include <popops/Operation.hpp>

#include <popops/codelets.hpp>
#include <poputil/VertexTemplates.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace poplar;
using namespace popops::internal;
using popops::Operation;

TEST(ReduceCycles, ContinuousReduceByHand) {
  auto device = popsdk::test::testDevice(1);
  const auto &target = device.getTarget();
  // float ADD: two partials per 64-bit load, so 10 partials are 5 loads per output; 4 outputs:
  // 4 * 5 + 12 * 4 + 10 + 7.
  EXPECT_EQ(continuousReduceCycles({target, Operation::ADD, FLOAT, FLOAT, false, false}, 4, 10),
            85u);
  // An odd partial count costs 2 more, an update 1 more.
  EXPECT_EQ(continuousReduceCycles({target, Operation::ADD, FLOAT, FLOAT, true, false}, 4, 9),
            85u + 2 + 1);
  // LOG_ADD: 20 cycles per partial.
  EXPECT_EQ(continuousReduceCycles({target, Operation::LOG_ADD, FLOAT, FLOAT, false, false}, 4, 10),
            20u * 4 * 10 + 12 * 4 + 10 + 7);
}

TEST(ReduceCycles, ReduceByHand) {
  auto device = popsdk::test::testDevice(1);
  const auto &target = device.getTarget();
  // float ADD (vectorised, 4 outputs a pass), one region of 8 outputs from partials of 2 rows
  // and 1 row: 7 + 26 vertex; 16 + 6 + 2 log2(4) + 2 region; per pass 5 + store (2 * min(4, 2)
  // + 1) + 1 + 2 partials * 10, and (2 + 1) rows * (2 + 2 + 4 / 2 + 3); two passes.
  const ReduceVertexCost add{target, Operation::ADD, FLOAT, FLOAT, false, false};
  EXPECT_EQ(reduceCycles(add, {{8, {16, 8}}}), 33u + 28 + 2 * (5 + 5 + 1 + 20 + 3 * 9));
  // LOGICAL_AND (element loop): 7 + 24, 8 a region, 22 + (24 + 1) * size a partial.
  const ReduceVertexCost all{target, Operation::LOGICAL_AND, BOOL, BOOL, false, false};
  EXPECT_EQ(reduceCycles(all, {{2, {4}}}), 31u + 8 + 22 + 25 * 4);
  // Regions add up.
  EXPECT_EQ(reduceCycles(add, {{8, {16, 8}}, {8, {16, 8}}}),
            reduceCycles(add, {{8, {16, 8}}}) + reduceRegionCycles(add, {8, {16, 8}}));
}

TEST(ReduceCycles, GrowWithTheWork) {
  auto device = popsdk::test::testDevice(1);
  const auto &target = device.getTarget();
  for (Operation op : {Operation::ADD, Operation::MAX, Operation::LOG_ADD}) {
    for (Type t : {FLOAT, HALF}) {
      const ReduceVertexCost v{target, op, t, t, false, false};
      auto rows = [&](std::size_t n) { return reduceCycles(v, {{16, {16 * n}}}); };
      EXPECT_LT(rows(1), rows(2)) << op << " " << t;
      EXPECT_LT(rows(2), rows(8)) << op << " " << t;
      EXPECT_LT(continuousReduceCycles(v, 8, 16), continuousReduceCycles(v, 8, 64))
          << op << " " << t;
      EXPECT_LT(continuousReduceCycles(v, 8, 16), continuousReduceCycles(v, 16, 16))
          << op << " " << t;
    }
  }
  // Half partials are folded 8 at a time by ADD, float ones 4: half costs no more.
  const ReduceVertexCost f{target, Operation::ADD, FLOAT, FLOAT, false, false};
  const ReduceVertexCost h{target, Operation::ADD, HALF, FLOAT, false, false};
  EXPECT_LE(reduceCycles(h, {{64, {64 * 32}}}), reduceCycles(f, {{64, {64 * 32}}}));
}

// The fan-in model's price of a fold (regionFoldCycles) against the Reduce vertex it stands for,
// float ADD, one partial region of whole rows: regions of one block, a few blocks and many, and
// a block with two columns past it, with few and many rows. Within 15% (the rows' alignment, which
// the test does not choose, moves the vertex by a few percent): the model decides whether an
// intermediate stage pays.
TEST(ReduceCycles, RegionFoldCyclesMatchTheVertex) {
  auto device = popsdk::test::testDevice(1);
  const ReduceVertexCost add{device.getTarget(), Operation::ADD, FLOAT, FLOAT, false, false};
  const std::vector<std::pair<std::size_t, std::size_t>> cases = {{8, 2},  {8, 16},  {16, 16},
                                                                  {40, 6}, {256, 6}, {10, 20}};
  std::vector<popsdk::test::VertexTester> testers;
  for (const auto &[width, rows] : cases)
    testers.push_back(
        popsdk::test::VertexTester(popops::addCodelets,
                                   poputil::templateVertex("popops::Reduce",
                                                           std::string("popops::ReduceAdd"), FLOAT,
                                                           FLOAT, false))
            .outputList("out", FLOAT, {width})
            .input("numPartials", UNSIGNED_SHORT, {1.0})
            .inputList("partials", FLOAT, {std::vector<double>(width * rows, 1.0)}));
  const auto results = popsdk::test::VertexTester::runEach(testers);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto [width, rows] = cases[i];
    const double measured = double(results[i].threadCycles);
    const double model = double(regionFoldCycles(add, width, rows));
    EXPECT_LT(std::abs(model - measured), 0.15 * measured)
        << width << " outputs of " << rows << " rows: model " << model << ", vertex " << measured;
  }
}

} // namespace
