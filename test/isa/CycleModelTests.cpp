// The tile-level cycle model: greedy placement over 6 contexts, MultiVertex barriers, overhead.
#include "interp/CycleModel.hpp"

#include <gtest/gtest.h>

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

TEST(CycleModel, EmptyComputeSetCostsNothing) { EXPECT_EQ(scheduleTile({}).tileCycles, 0u); }

} // namespace
} // namespace poplar::interp
