// The tile-level cycle model: greedy placement over 6 contexts, MultiVertex barriers, overhead.
#include "interp/CycleModel.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace poplar::interp {
namespace {

VertexCycles vertex(uint64_t c) { return {false, {c}}; }

TEST(CycleModel, CostsComeFromTheTable) {
  EXPECT_EQ(threadCycles(isa::Opcode::Add), 1u);
  EXPECT_EQ(threadCycles(isa::Opcode::Fdiv), 3u);
  EXPECT_EQ(threadCycles(isa::Opcode::Fexp), 3u);
  EXPECT_EQ(threadCycles(isa::Opcode::Flog), 6u);
}

TEST(CycleModel, SixVerticesRunInParallel) {
  std::vector<VertexCycles> v(6, vertex(100));
  TileComputeCycles t = scheduleTile(v);
  EXPECT_EQ(t.tileCycles, 6u * 100 + 6 * 6);
  EXPECT_EQ(t.busyThreadCycles, 600u);
}

TEST(CycleModel, GreedyLeastLoadedInOrder) {
  // 50 and 10 go to contexts 0 and 1; then 4 x 10 fill 2..5; 30 joins context 1 (10 + 30 = 40).
  std::vector<VertexCycles> v = {vertex(50), vertex(10), vertex(10), vertex(10),
                                 vertex(10), vertex(10), vertex(30)};
  TileComputeCycles t = scheduleTile(v);
  EXPECT_EQ(t.contextCycles[0], 50u);
  EXPECT_EQ(t.contextCycles[1], 40u);
  EXPECT_EQ(t.tileCycles, 6u * 50 + 7 * 6);
}

TEST(CycleModel, MultiVertexWaitsForAllContexts) {
  std::vector<VertexCycles> v = {vertex(20), {true, {5, 5, 5, 5, 5, 9}}};
  TileComputeCycles t = scheduleTile(v);
  EXPECT_EQ(t.contextCycles[0], 25u);
  EXPECT_EQ(t.contextCycles[5], 29u);
  EXPECT_EQ(t.supervisorCycles, 6u + 11);
  EXPECT_EQ(t.tileCycles, 6u * 29 + 17);
}

// The rules of docs/cycle-model.md written out plainly: every Vertex scans for the least-loaded
// context, every MultiVertex for the busiest.
TileComputeCycles referenceSchedule(const std::vector<VertexCycles> &vertices) {
  TileComputeCycles out;
  auto &ctx = out.contextCycles;
  for (const auto &v : vertices) {
    if (v.multiVertex) {
      uint64_t start = *std::max_element(ctx.begin(), ctx.end());
      for (unsigned w = 0; w < ctx.size(); ++w)
        ctx[w] = start + (w < v.workerCycles.size() ? v.workerCycles[w] : 0);
      out.supervisorCycles += 11;
    } else {
      *std::min_element(ctx.begin(), ctx.end()) += v.workerCycles[0];
      out.supervisorCycles += 6;
    }
    for (uint64_t c : v.workerCycles)
      out.busyThreadCycles += c;
  }
  out.tileCycles = 6 * *std::max_element(ctx.begin(), ctx.end()) + out.supervisorCycles;
  return out;
}

TEST(CycleModel, SchedulerMatchesTheRulesWithZeroCyclesAndMultiVertices) {
  // TileScheduler places a tile's first vertices without scanning; zero-cycle vertices (a
  // setPerfEstimate of 0) and MultiVertex barriers are where that could go wrong.
  std::mt19937 rng(14);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<VertexCycles> v(rng() % 12);
    for (auto &x : v) {
      x.multiVertex = rng() % 6 == 0;
      x.workerCycles.resize(x.multiVertex ? 6 : 1);
      for (auto &c : x.workerCycles)
        c = rng() % 3 == 0 ? 0 : rng() % 40;
    }
    TileComputeCycles want = referenceSchedule(v), got = scheduleTile(v);
    ASSERT_EQ(got.tileCycles, want.tileCycles) << "trial " << trial;
    ASSERT_EQ(got.busyThreadCycles, want.busyThreadCycles) << "trial " << trial;
    ASSERT_EQ(got.contextCycles, want.contextCycles) << "trial " << trial;
    // A reused scheduler starts each tile afresh.
    TileScheduler reused;
    reused.addVertex(99);
    reused.addMultiVertex(v.empty() ? nullptr : v[0].workerCycles.data(), 0);
    reused.reset();
    for (const auto &x : v)
      x.multiVertex ? reused.addMultiVertex(x.workerCycles.data(), x.workerCycles.size())
                    : reused.addVertex(x.workerCycles[0]);
    ASSERT_EQ(reused.finish().tileCycles, want.tileCycles) << "trial " << trial;
  }
}

TEST(CycleModel, EmptyComputeSetCostsNothing) { EXPECT_EQ(scheduleTile({}).tileCycles, 0u); }

} // namespace
} // namespace poplar::interp
