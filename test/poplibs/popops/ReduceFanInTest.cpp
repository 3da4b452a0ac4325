// The reduction planner's intermediate stage (poplibs/popops/lib/ReduceFanIn.cpp): which output
// regions it spreads over the tiles that hold their partial results, and that every piece is
// still folded exactly once.
#include "ReducePlan.hpp"
#include "TestEnvironment.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace {

using namespace poplar;
using namespace popops::internal;
using popops::Operation;

/// `rowsPerSource` one-row pieces of output region [0, width) from each of `sources` tiles,
/// all bound for tile 0 of `tiles`.
std::vector<std::vector<Incoming>> fanIn(unsigned tiles, unsigned sources, unsigned rowsPerSource,
                                         std::size_t width) {
  std::vector<std::vector<Incoming>> next(tiles);
  for (unsigned s = 0; s < sources; ++s)
    for (unsigned r = 0; r < rowsPerSource; ++r)
      next[0].push_back({{0, width, s + 1, r * width, width, false}, s});
  return next;
}

struct Spread {
  std::size_t regions = 0, tilesUsed = 0, mostOnATile = 0, pieces = 0;
};

Spread spreadOf(unsigned tiles, unsigned sources, unsigned rowsPerSource, std::size_t width) {
  auto device = popsdk::test::testDevice(tiles);
  StageTypes t{device.getTarget(), Operation::ADD, FLOAT, FLOAT, FLOAT};
  Spread s;
  auto pieces = spreadFanIn(fanIn(tiles, sources, rowsPerSource, width), t, s.regions);
  for (const auto &tile : pieces) {
    s.tilesUsed += !tile.empty();
    s.mostOnATile = std::max(s.mostOnATile, tile.size());
    s.pieces += tile.size();
    for (const auto &p : tile)
      EXPECT_EQ(p.len, width); // pieces pass through whole
  }
  return s;
}

// 1472 tiles each handing six partial results of a scalar to one tile (the 1M-float sum):
// they are folded first on at most 2 sqrt(1472) = 76 of those tiles, each a share of them.
TEST(ReduceFanIn, ThousandsOfPartialsAreSpread) {
  const auto s = spreadOf(1472, 1472, 6, 1);
  const auto limit = std::size_t(2 * std::sqrt(1472.0));
  EXPECT_EQ(s.regions, 1u);
  EXPECT_EQ(s.pieces, 1472u * 6);
  EXPECT_GT(s.tilesUsed, 8u);
  EXPECT_LE(s.tilesUsed, limit);
  // A source tile's pieces stay together, and the shares are about even.
  EXPECT_LE(s.mostOnATile, 2 * 1472u * 6 / s.tilesUsed + 6);
}

// Wide outputs spread too: 256 tiles sending one 64-wide row each.
TEST(ReduceFanIn, WideRegionsAreSpread) {
  const auto s = spreadOf(256, 256, 4, 64);
  EXPECT_EQ(s.regions, 1u);
  EXPECT_EQ(s.pieces, 256u * 4);
  EXPECT_GT(s.tilesUsed, 1u);
  EXPECT_LE(s.tilesUsed, 32u);
}

// At most 2 sqrt(tiles) sources: PopLibs goes straight to the output, and so does the plan.
TEST(ReduceFanIn, FewSourcesGoStraightToTheOutput) {
  const auto s = spreadOf(1472, 76, 6, 1);
  EXPECT_EQ(s.regions, 0u);
  EXPECT_EQ(s.tilesUsed, 1u);
  EXPECT_EQ(s.pieces, 76u * 6);
}

// Just over the limit, one row each: 80 rows share the output tile's workers in one vertex
// each; an intermediate stage would add its syncs and vertices for less than it saves, so the
// estimators keep them on the output's tile.
TEST(ReduceFanIn, CheapFanInIsNotSpread) {
  const auto s = spreadOf(1472, 80, 1, 1);
  EXPECT_EQ(s.regions, 0u);
  EXPECT_EQ(s.tilesUsed, 1u);
}

} // namespace
