// The executor's step plans (engine/StepPlans.hpp): a tile that costs much more than a chunk
// becomes parts that cover each of its worker runs once, in order, one worker context each, and
// the parts do not depend on the host threads; a transpose's chunks start at its blocks of rows.
#include "engine/StepPlans.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

using namespace poplar::detail;

/// Tile 0: two MultiVertex vertices and two one-worker vertices, costly; tile 1: one cheap
/// vertex.
struct Fixture {
  CompiledGraph cg;
  CompiledComputeSet cs;
  Fixture() {
    cg.target.numWorkerContexts = 6;
    cg.vertexTypes = {{"Multi", 0, 0, true}, {"Single", 0, 0, false}};
    for (std::uint32_t type : {0u, 1u, 0u, 1u})
      cs.vertices.push_back({type, 0, 0});
    cs.vertices.push_back({1, 0, 1});
  }
  /// The plan after a first run measured `cycles` for each vertex.
  ComputePlan measured(const std::vector<std::uint64_t> &cycles, unsigned threads) const {
    ComputePlan plan = planCompute(cg, cs, threads);
    plan.vertexCycles = cycles;
    for (TileWork &t : plan.tiles)
      for (std::uint32_t v = t.begin; v < t.end; ++v)
        t.busyCycles += cycles[v];
    replanFromMeasurement(plan, cg, cs, threads);
    return plan;
  }
};

TEST(StepPlans, ACostlyTileIsSplitIntoPartsCoveringEachRunOnce) {
  const Fixture f;
  const ComputePlan plan = f.measured({60000, 3000, 90000, 100, 50}, 2);
  ASSERT_EQ(plan.splits.size(), 1u);
  const SplitTile split = plan.splits[0];
  EXPECT_EQ(split.first, 0u);
  ASSERT_GE(split.count, 2u);
  EXPECT_LE(split.count, 6u);
  ASSERT_EQ(plan.tiles.size(), split.count + 1);
  // Walk the runs: vertex 0 workers 0-5, vertex 1, vertex 2 workers 0-5, vertex 3.
  const std::vector<unsigned> runsOf = {6, 1, 6, 1};
  std::uint32_t vertex = 0, worker = 0;
  for (std::uint32_t p = 0; p < split.count; ++p) {
    const TileWork &part = plan.tiles[p];
    SCOPED_TRACE("part " + std::to_string(p));
    EXPECT_TRUE(part.part);
    EXPECT_EQ(part.context, p);
    EXPECT_EQ(part.begin, vertex);
    EXPECT_EQ(part.beginWorker, worker);
    const std::uint32_t last = part.end - 1;
    const unsigned endWorker = part.endWorker ? part.endWorker : runsOf[last];
    vertex = endWorker == runsOf[last] ? last + 1 : last;
    worker = endWorker == runsOf[last] ? 0 : endWorker;
  }
  EXPECT_EQ(vertex, 4u);
  EXPECT_FALSE(plan.tiles.back().part);
  EXPECT_EQ(plan.tiles.back().tile, 1u);
  EXPECT_EQ(plan.runOffset, (std::vector<std::uint32_t>{0, 6, 7, 13, 14}));
  EXPECT_EQ(plan.runCycles.size(), 15u);
}

TEST(StepPlans, PartsDoNotDependOnTheThreads) {
  const Fixture f;
  const std::vector<std::uint64_t> cycles = {60000, 3000, 90000, 100, 50};
  const ComputePlan one = f.measured(cycles, 1);
  for (unsigned threads : {2u, 3u, 8u}) {
    const ComputePlan many = f.measured(cycles, threads);
    ASSERT_EQ(many.tiles.size(), one.tiles.size());
    for (std::size_t i = 0; i < one.tiles.size(); ++i) {
      EXPECT_EQ(many.tiles[i].begin, one.tiles[i].begin);
      EXPECT_EQ(many.tiles[i].end, one.tiles[i].end);
      EXPECT_EQ(many.tiles[i].beginWorker, one.tiles[i].beginWorker);
      EXPECT_EQ(many.tiles[i].endWorker, one.tiles[i].endWorker);
    }
  }
}

TEST(StepPlans, CheapTilesStayWhole) {
  const Fixture f;
  const ComputePlan plan = f.measured({600, 30, 900, 10, 5}, 4);
  EXPECT_TRUE(plan.splits.empty());
  EXPECT_EQ(plan.tiles.size(), 2u);
  EXPECT_TRUE(plan.runCycles.empty());
}

TEST(StepPlans, ATransposesChunksStartAtItsBlocksOfRows) {
  // A [100, 512] float transpose on one tile: 100 groups of 512 one-element runs, one lattice.
  std::vector<CopyRun> runs;
  for (std::uint32_t r = 0; r < 100; ++r)
    for (std::uint32_t c = 0; c < 512; ++c)
      runs.push_back({0, (r * 512 + c) * 4, 0, 1 << 20 | (c * 100 + r) * 4, 4});
  const CopyPlan plan = planCopy(runs, 2);
  ASSERT_EQ(plan.groups.size(), 100u);
  ASSERT_TRUE(plan.chunks.parallel);
  ASSERT_GT(plan.chunks.count(), 2u);
  for (std::uint32_t c = 0; c < plan.chunks.count(); ++c)
    EXPECT_TRUE(plan.chunks.begin[c] % kLatticeBlock == 0) << plan.chunks.begin[c];
  EXPECT_EQ(plan.chunks.begin.back(), 100u);
}

} // namespace
