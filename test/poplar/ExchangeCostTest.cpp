// The exchange cost model: supertile exchange-bus sharing (IPUModel::supportsSuperTileSendReceive).
#include "compiler/ExchangePlan.hpp"

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <gtest/gtest.h>

#include <vector>

using namespace poplar;
using poplar::detail::CopyRun;
using poplar::detail::TargetDesc;

namespace {

constexpr std::uint32_t kBytes = 800;

/// Two IPUs of four tiles (supertiles {0, 1} and {2, 3} on each), 4 exchange bytes a cycle.
TargetDesc target(bool sharing) {
  TargetDesc t;
  t.numIPUs = 2;
  t.tilesPerIPU = 4;
  t.exchangeBytesPerCycle = 4;
  t.tilesPerSuperTile = 2;
  t.superTileSendReceive = sharing;
  return t;
}

std::uint64_t cycles(bool sharing, const std::vector<CopyRun> &runs) {
  return poplar::detail::costOfExchange(target(sharing), runs).exchangeCycles;
}

std::uint64_t perTile(std::uint64_t bytes) { return bytes / target(false).exchangeBytesPerCycle; }
std::uint64_t perSuperTile(std::uint64_t bytes) {
  return bytes / (target(true).exchangeBytesPerCycle * target(true).tilesPerSuperTile);
}

} // namespace

// Tiles 0 and 1 both receive tile 2's bytes: they arrive once, over both tiles' buses.
TEST(ExchangeCost, APairReceivingTheSameDataTakesItOnceAtTheirWholeBandwidth) {
  const std::vector<CopyRun> runs{{2, 0, 0, 0, kBytes}, {2, 0, 1, 0, kBytes}};
  EXPECT_EQ(cycles(true, runs), perSuperTile(kBytes));
  EXPECT_EQ(cycles(false, runs), perTile(kBytes));
}

// Tile 0 receives from tile 2; their partners 1 and 3 are idle, so both use the pair's buses.
TEST(ExchangeCost, ATileWithAnIdlePartnerUsesItsBus) {
  const std::vector<CopyRun> runs{{2, 0, 0, 0, kBytes}};
  EXPECT_EQ(cycles(true, runs), perSuperTile(kBytes));
  EXPECT_EQ(cycles(false, runs), perTile(kBytes));
}

// Tiles 0 and 1 receive different bytes (from tiles 2 and 3): the pair's buses are full.
TEST(ExchangeCost, TwoTilesWithExclusiveDataGainNothing) {
  const std::vector<CopyRun> runs{{2, 0, 0, 0, kBytes}, {3, 0, 1, 0, kBytes}};
  EXPECT_EQ(cycles(true, runs), perTile(kBytes));
  EXPECT_EQ(cycles(true, runs), cycles(false, runs));
}

// A tile takes each received byte into one place, so bytes it receives twice arrive twice.
TEST(ExchangeCost, BytesOneTileReceivesTwiceArriveTwice) {
  const std::vector<CopyRun> runs{{2, 0, 0, 0, kBytes}, {2, 0, 0, kBytes, kBytes}};
  EXPECT_EQ(cycles(true, runs), perSuperTile(2 * kBytes));
  EXPECT_EQ(cycles(false, runs), perTile(2 * kBytes));
}

// With three tiles an IPU, tile 2 (IPU 0) and tile 3 (IPU 1) are not a pair: each has the
// whole of its own (partnerless) supertile's bandwidth.
TEST(ExchangeCost, SuperTilesDoNotStraddleIPUs) {
  TargetDesc t = target(true);
  t.tilesPerIPU = 3;
  const std::vector<CopyRun> runs{{0, 0, 2, 0, kBytes}, {4, 0, 3, 0, kBytes}};
  EXPECT_EQ(poplar::detail::costOfExchange(t, runs).exchangeCycles, perSuperTile(kBytes));
}

// Through the public API: IPUModel::supportsSuperTileSendReceive = false gives each tile only
// its own bus, so a copy between tiles with idle partners takes its bytes at a tile's rate.
TEST(ExchangeCost, IPUModelWithoutSuperTileSendReceiveKeepsEachTileToItsBus) {
  auto runCycles = [](bool sharing) {
    IPUModel model("ipu2");
    model.tilesPerIPU = 4;
    model.supportsSuperTileSendReceive = sharing;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    Tensor a = graph.addVariable(FLOAT, {kBytes / 4}, "a");
    Tensor b = graph.addVariable(FLOAT, {kBytes / 4}, "b");
    graph.setTileMapping(a, 0);
    graph.setTileMapping(b, 2);
    Engine engine(graph, program::Copy(a, b));
    engine.load(device);
    engine.run();
    return engine.getLastRunCycles();
  };
  EXPECT_EQ(runCycles(false) - runCycles(true), perTile(kBytes) - perSuperTile(kBytes));
}
