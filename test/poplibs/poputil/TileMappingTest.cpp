// poputil::splitRegions and the linear tile mapping against mappings worked out by hand from
// PopLibs' rule (grains, at most one run per tile, a minimum per tile, runs within one grain).
#include <poplar/Graph.hpp>
#include <poplar/Target.hpp>
#include <poplar/exceptions.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/Util.hpp>

#include "ExpectThrows.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace poplar;
using poputil::calcLinearTileMapping;

namespace {

typedef std::vector<std::vector<Interval>> Mapping;

Graph graphWithTiles(unsigned tiles) { return Graph(Target::createIPUTarget(1, tiles, "ipu2")); }

/// A mapping of one interval per tile, from the run boundaries b0=0 < b1 < ... < bn.
Mapping runs(const std::vector<std::size_t> &bounds) {
  Mapping m;
  for (std::size_t i = 0; i + 1 < bounds.size(); ++i)
    m.push_back({Interval(bounds[i], bounds[i + 1])});
  return m;
}

} // namespace

// 10 grains of 1 over 4 tiles: 3 grains per tile at most, so 4 runs; run p is
// [p*10/4, (p+1)*10/4): 2, 3, 2, 3 elements.
TEST(TileMapping, UnitGrainsAlternateRunSizes) {
  Graph g = graphWithTiles(4);
  EXPECT_EQ(calcLinearTileMapping(g, {10}, 0, 1), runs({0, 2, 5, 7, 10}));
}

// 10 elements in grains of 4 are 3 grains (the last short) over 4 tiles: one grain per tile,
// tile 3 unused, so the mapping has 3 entries.
TEST(TileMapping, ShortLastGrainAndFewerRunsThanTiles) {
  Graph g = graphWithTiles(4);
  EXPECT_EQ(calcLinearTileMapping(g, {10}, 0, 4), runs({0, 4, 8, 10}));
  // 7 elements in grains of 2 over 8 tiles: 4 grains, one each.
  Graph g8 = graphWithTiles(8);
  EXPECT_EQ(calcLinearTileMapping(g8, {7}, 0, 2), runs({0, 2, 4, 6, 7}));
}

// The shape only contributes its element count.
TEST(TileMapping, ShapeIsFlattened) {
  Graph g = graphWithTiles(4);
  EXPECT_EQ(calcLinearTileMapping(g, {2, 5}, 0, 1), calcLinearTileMapping(g, {10}, 0, 1));
}

// The minimum per tile limits the number of runs: 100 floats (50 grains of 2, min 32 elements =
// 16 grains) allow 50/16 = 3 runs of ceil(50/3) = 17 grains; runs are grains [0,16), [16,33),
// [33,50).
TEST(TileMapping, MinimumPerTileLimitsRuns) {
  Graph g = graphWithTiles(1472);
  EXPECT_EQ(calcLinearTileMapping(g, {100}, 32, 2), runs({0, 32, 66, 100}));
}

// Fewer elements than the minimum: one run on tile 0.
TEST(TileMapping, BelowMinimumGoesToTileZero) {
  Graph g = graphWithTiles(4);
  EXPECT_EQ(calcLinearTileMapping(g, {5}, 32, 2), runs({0, 5}));
}

TEST(TileMapping, EmptyTensorHasNoRuns) {
  Graph g = graphWithTiles(4);
  EXPECT_TRUE(calcLinearTileMapping(g, {0}, 32, 2).empty());
  EXPECT_TRUE(calcLinearTileMapping(g, {3, 0}, 0, 1).empty());
}

// tut5's 40x50 float matrix with the defaults on ipu2: 1000 grains, at most 1000/16 = 62 runs
// of ceil(1000/62) = 17 grains, so ceil(1000/17) = 59 runs; run p is grains
// [p*1000/59, (p+1)*1000/59).
TEST(TileMapping, DefaultFloatMappingOfTut5Matrix) {
  Graph g = graphWithTiles(1472);
  Tensor matrix = g.addVariable(FLOAT, {40, 50}, "matrix");
  Mapping m = calcLinearTileMapping(g, matrix);
  ASSERT_EQ(m.size(), 59u);
  EXPECT_EQ(m[0], std::vector<Interval>{Interval(0, 32)});
  EXPECT_EQ(m[1], std::vector<Interval>{Interval(32, 66)});
  EXPECT_EQ(m[58], std::vector<Interval>{Interval(1966, 2000)});
  std::size_t next = 0;
  for (unsigned p = 0; p < m.size(); ++p) {
    ASSERT_EQ(m[p].size(), 1u);
    EXPECT_EQ(m[p][0].begin(), next);
    EXPECT_EQ(m[p][0].end(), 2 * ((p + 1) * 1000 / 59));
    next = m[p][0].end();
  }
  EXPECT_EQ(next, 2000u);
}

// Halves: grain 4 (64-bit vectors), minimum 64 elements (128 bytes). 1000 halves are 250 grains,
// at most 250/16 = 15 runs of ceil(250/15) = 17 grains: 15 runs.
TEST(TileMapping, DefaultHalfMapping) {
  Graph g = graphWithTiles(1472);
  Mapping m = calcLinearTileMapping(g, g.addVariable(HALF, {1000}, "h"));
  ASSERT_EQ(m.size(), 15u);
  EXPECT_EQ(m[0], std::vector<Interval>{Interval(0, 64)});
  EXPECT_EQ(m[1], std::vector<Interval>{Interval(64, 132)});
  EXPECT_EQ(m[14], std::vector<Interval>{Interval(932, 1000)});
  // 100 halves are 25 grains: fewer than two minimums, so one run.
  EXPECT_EQ(calcLinearTileMapping(g, g.addVariable(HALF, {100}, "h2")), runs({0, 100}));
}

// When the tiles, not the minimum, limit the runs: 10000 floats over 16 tiles are 5000 grains
// of which a tile takes at most ceil(5000/16) = 313; 16 runs of [p*5000/16, (p+1)*5000/16).
TEST(TileMapping, TilesLimitRuns) {
  Graph g = graphWithTiles(16);
  Mapping m = calcLinearTileMapping(g, {10000}, 32, 2);
  ASSERT_EQ(m.size(), 16u);
  EXPECT_EQ(m[0], std::vector<Interval>{Interval(0, 624)});
  EXPECT_EQ(m[1], std::vector<Interval>{Interval(624, 1250)});
  EXPECT_EQ(m[15], std::vector<Interval>{Interval(9374, 10000)});
}

// mapTensorLinearly maps the tensor's elements in its own (view) order.
TEST(TileMapping, MapTensorLinearlySetsTheMapping) {
  Graph g = graphWithTiles(4);
  Tensor t = g.addVariable(FLOAT, {10}, "t");
  poputil::mapTensorLinearly(g, t, 0, 1);
  Mapping expected = runs({0, 2, 5, 7, 10});
  EXPECT_EQ(g.getTileMapping(t), expected);

  // A transposed view of a 2x3 variable: view element k = 2*j + i is v[i][j], variable element
  // 3*i + j. Grains of 3 over 4 tiles give two runs: view [0,3) on tile 0, [3,6) on tile 1.
  Tensor v = g.addVariable(FLOAT, {2, 3}, "v");
  poputil::mapTensorLinearly(g, v.transpose(), 0, 3);
  Mapping mv = g.getTileMapping(v);
  ASSERT_EQ(mv.size(), 4u);
  // View elements 0, 1, 2 are variable elements 0, 3, 1; view elements 3, 4, 5 are 4, 2, 5.
  EXPECT_EQ(mv[0], (std::vector<Interval>{Interval(0, 2), Interval(3, 4)}));
  EXPECT_EQ(mv[1], (std::vector<Interval>{Interval(2, 3), Interval(4, 6)}));
}

// The multi-region case: elements are taken in order across the regions. 42 elements in grains
// of 4 are 11 grains; at most 8 partitions but at least 6 elements (2 grains) each allow 11/2 = 5
// partitions of ceil(11/5) = 3 grains, so ceil(11/3) = 4 partitions of grains [0,2), [2,5),
// [5,8), [8,11): elements [0,8), [8,20), [20,32), [32,42).
TEST(SplitRegions, WalksRegionsInOrder) {
  std::vector<Interval> regions = {Interval(0, 10), Interval(15, 20), Interval(33, 60)};
  Mapping parts = poputil::splitRegions(regions, 4, 8, 6);
  Mapping expected = {{Interval(0, 8)},
                      {Interval(8, 10), Interval(15, 20), Interval(33, 38)},
                      {Interval(38, 50)},
                      {Interval(50, 60)}};
  EXPECT_EQ(parts, expected);
}

TEST(SplitRegions, BetweenWorkersUsesSixContexts) {
  Target target = Target::createIPUTarget(1, 4, "ipu2");
  Mapping parts = poputil::splitRegionsBetweenWorkers(target, {Interval(0, 12)}, 1);
  EXPECT_EQ(parts, runs({0, 2, 4, 6, 8, 10, 12}));
}

TEST(SplitRegions, RejectsZeroGrain) {
  EXPECT_THROW(poputil::splitRegions({Interval(0, 4)}, 0, 4), std::invalid_argument);
}

TEST(TileImbalance, MeasuresExcessOverBalancedShare) {
  // 10 elements over 4 tiles: balanced share ceil(10/4) = 3; the fullest tile has 3.
  EXPECT_EQ(poputil::getTileImbalance(runs({0, 2, 5, 7, 10})), 0u);
  // One tile with everything: 10 - 3 = 7 (the mapping has 4 tiles).
  Mapping allOnOne = {{Interval(0, 10)}, {}, {}, {}};
  EXPECT_EQ(poputil::getTileImbalance(allOnOne), 7u);
  // A minimum per tile of 8 raises the balanced share: 10 - 8 = 2.
  EXPECT_EQ(poputil::getTileImbalance(allOnOne, 8), 2u);
}

// A shape whose element count wraps once mapped nothing (0 elements); now it names the shape.
TEST(PoputilTileMapping, Regression_OverflowingShapeIsRefused) {
  Graph g = graphWithTiles(4);
  const std::size_t big = std::size_t(1) << 40;
  popsdk::test::expectThrowsWith<overflow_error>(
      [&] {
        calcLinearTileMapping(g, {big, big}, 1, 1);
      },
      {"poputil::calcLinearTileMapping", "{1099511627776,1099511627776}"});
}
