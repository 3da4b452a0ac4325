// A compute set's copy-in moved tile by tile (engine/TileCopyIn.hpp): each tile's runs, in their
// order, once a run, however many parts of the tile ask; never when a vertex of the set writes
// what the copy-in reads, so such a set still reads the values from before it, or when a tile
// it writes runs nothing.
#include "engine/TileCopyIn.hpp"
#include "CodeletSources.hpp"
#include "TestEnvironment.hpp"

#include <poplar/Engine.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

namespace {

using namespace poplar::detail;

/// Three tiles of 64 bytes; the copy-in moves tile 0's bytes [0, 8) to tile 1 and [8, 16) to
/// tile 2, and tile 0's bytes [16, 20) over tile 1's first 4 after that.
struct Fixture {
  CompiledComputeSet cs;
  std::vector<std::vector<std::uint8_t>> tiles{3, std::vector<std::uint8_t>(64)};
  std::vector<std::uint8_t *> base;
  Fixture() {
    cs.copyIn = {{0, 0, 1, 32, 8}, {0, 8, 2, 32, 8}, {0, 16, 1, 32, 4}};
    for (std::uint32_t t = 0; t < 3; ++t) {
      cs.vertices.push_back({0, t, t});
      base.push_back(tiles[t].data());
    }
    for (std::uint8_t i = 0; i < 64; ++i)
      tiles[0][i] = i;
  }
  /// A vertex on `tile` that writes bytes [offset, offset + bytes) of it.
  void writes(std::uint32_t tile, std::uint32_t offset, std::uint32_t bytes) {
    cs.vertices[tile].firstRegion = std::uint32_t(cs.regions.size());
    cs.vertices[tile].regions = 1;
    FieldRegion r;
    r.offset = offset;
    r.bytes = bytes;
    r.kind = RegionKind::Output;
    cs.regions.push_back(r);
  }
};

TEST(TileCopyIn, MovesEachTilesRunsInOrderOnceARun) {
  Fixture f;
  f.writes(1, 32, 8); // its own buffer: the copy-in reads none of it
  auto copy = tileCopyIn(f.cs, 3);
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->tiles(), (std::vector<std::uint32_t>{1, 2}));
  copy->startRun();
  copy->bringIn(f.base.data(), 1);
  const std::vector<std::uint8_t> want1 = {16, 17, 18, 19, 4, 5, 6, 7};
  EXPECT_EQ(std::vector<std::uint8_t>(f.tiles[1].begin() + 32, f.tiles[1].begin() + 40), want1);
  EXPECT_EQ(f.tiles[2][32], 0); // tile 2's is its own to move
  f.tiles[0][4] = 99;
  copy->bringIn(f.base.data(), 1); // a second part of tile 1 in the same run: nothing moves
  EXPECT_EQ(f.tiles[1][36], 4);
  copy->startRun();
  copy->bringIn(f.base.data(), 1);
  EXPECT_EQ(f.tiles[1][36], 99);
}

TEST(TileCopyIn, ANoneWhenAVertexWritesWhatTheCopyInReads) {
  Fixture f;
  f.writes(0, 12, 2); // inside the run to tile 2
  EXPECT_FALSE(tileCopyIn(f.cs, 3));
  Fixture g;
  g.writes(0, 20, 12); // just after the last byte read
  EXPECT_TRUE(tileCopyIn(g.cs, 3));
}

TEST(TileCopyIn, ANoneWhenATileItWritesRunsNoVertex) {
  Fixture f;
  f.cs.vertices.pop_back(); // tile 2's
  EXPECT_FALSE(tileCopyIn(f.cs, 3));
}

TEST(TileCopyIn, PartsOnTwoThreadsBothSeeTheTileMoved) {
  // Large enough that the second thread asks while the first moves.
  CompiledComputeSet cs;
  const std::uint32_t bytes = 1 << 20;
  std::vector<std::vector<std::uint8_t>> tiles{std::vector<std::uint8_t>(bytes, 7),
                                               std::vector<std::uint8_t>(bytes, 0)};
  std::vector<std::uint8_t *> base{tiles[0].data(), tiles[1].data()};
  cs.copyIn = {{0, 0, 1, 0, bytes}};
  cs.vertices = {{0, 0, 0}, {0, 1, 1}};
  auto copy = tileCopyIn(cs, 2);
  ASSERT_TRUE(copy);
  for (int run = 0; run < 20; ++run) {
    std::fill(tiles[1].begin(), tiles[1].end(), 0);
    copy->startRun();
    bool complete[2] = {};
    auto part = [&](int i) {
      copy->bringIn(base.data(), 1);
      complete[i] = tiles[1].front() == 7 && tiles[1].back() == 7;
    };
    std::thread other(part, 1);
    part(0);
    other.join();
    EXPECT_TRUE(complete[0] && complete[1]) << "run " << run;
  }
}

TEST(TileCopyIn, AVertexReadsTheValuesFromBeforeItsComputeSet) {
  // Vertex t writes c[t] and reads c[t - 1] from the tile before: were tile t's copy-in moved
  // after tile t - 1 ran, it would read the new value.
  using namespace poplar;
  constexpr unsigned kTiles = 4, kPerTile = 3;
  Device device = popsdk::test::testDevice(kTiles);
  Graph graph(device.getTarget());
  graph.addCodelets(popsdk::test::codeletPath("Shapes.cpp"));
  Tensor a = graph.addVariable(FLOAT, {kTiles, kPerTile}, "a");
  Tensor c = graph.addVariable(FLOAT, {kTiles, kPerTile}, "c");
  ComputeSet cs = graph.addComputeSet("shift");
  for (unsigned t = 0; t < kTiles; ++t) {
    graph.setTileMapping(a[t], t);
    graph.setTileMapping(c[t], t);
    auto v = graph.addVertex(cs, "MultiAdd",
                             {{"a", a[t]}, {"b", c[(t + kTiles - 1) % kTiles]}, {"out", c[t]}});
    graph.setTileMapping(v, t);
  }
  graph.createHostWrite("a", a);
  graph.createHostWrite("c", c);
  graph.createHostRead("c-out", c);
  Engine engine(graph, program::Execute(cs), {{"executor.hostThreads", "1"}});
  engine.load(device);
  std::vector<float> av(a.numElements()), cv(c.numElements());
  for (std::size_t i = 0; i < av.size(); ++i) {
    av[i] = float(i);
    cv[i] = 100.0f * float(i);
  }
  engine.writeTensor("a", av.data(), av.data() + av.size());
  engine.writeTensor("c", cv.data(), cv.data() + cv.size());
  for (int run = 0; run < 2; ++run) { // the plan's first run, and a run with it made
    std::vector<float> before = cv, got(cv.size());
    engine.run();
    engine.readTensor("c-out", got.data(), got.data() + got.size());
    for (unsigned t = 0; t < kTiles; ++t)
      for (unsigned j = 0; j < kPerTile; ++j) {
        const std::size_t i = t * kPerTile + j, prev = ((t + kTiles - 1) % kTiles) * kPerTile + j;
        EXPECT_EQ(got[i], av[i] + before[prev]) << "run " << run << " tile " << t;
      }
    cv = got;
  }
}

} // namespace
