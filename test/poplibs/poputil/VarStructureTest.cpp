// poputil's VarStructure: groupings detected from tensors laid out with known groupings, and
// partitionable tensors whose every partition is one contiguous region.
#include "ExpectThrows.hpp"

#include <poplar/IPUModel.hpp>
#include <poputil/VarStructure.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

using namespace poplar;
using popsdk::test::expectThrowsWith;
using poputil::GroupingInfo;

Device smallDevice() {
  IPUModel model("ipu2");
  model.tilesPerIPU = 4;
  return model.createDevice();
}

TEST(VarStructure, ShuffledChannelGroupsAreGroupingOfTheChannelDimension) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  // [C/16][N][16] dim-shuffled to [N][C]: channels in groups of 16, one group per tile region.
  Tensor var = graph.addVariable(HALF, {4, 3, 16}, "acts");
  for (unsigned g = 0; g < 4; ++g)
    graph.setTileMapping(var[g], g);
  Tensor t = var.dimShuffle({1, 0, 2}).reshape({3, 64});
  EXPECT_EQ(poputil::detectInnermostGrouping(graph, t), 16u);
  auto groupings = poputil::detectDimGroupings(graph, t);
  ASSERT_FALSE(groupings.empty());
  EXPECT_EQ(groupings[0], GroupingInfo(1, 16));
  // Inside the groups, the batch: the three rows of a group follow each other on its tile.
  ASSERT_EQ(groupings.size(), 2u);
  EXPECT_EQ(groupings[1], GroupingInfo(0, 3));
}

TEST(VarStructure, TransposedViewIsGroupedInItsOuterDimension) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor var = graph.addVariable(FLOAT, {16, 8}, "w");
  graph.setTileMapping(var, 2);
  Tensor t = var.transpose(); // [8][16], the 8 contiguous
  EXPECT_EQ(poputil::detectInnermostGrouping(graph, t), 1u);
  auto groupings = poputil::detectDimGroupings(graph, t);
  ASSERT_EQ(groupings.size(), 2u);
  EXPECT_EQ(groupings[0], GroupingInfo(0, 8));
  EXPECT_EQ(groupings[1], GroupingInfo(1, 16));
}

TEST(VarStructure, GroupingIsLimitedByTheLongestRunOnATile) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  // Rows of 6 contiguous elements, but each tile holds runs of 2.
  Tensor t = graph.addVariable(FLOAT, {4, 6}, "t");
  for (unsigned i = 0; i < 12; ++i)
    graph.setTileMapping(t.flatten().slice(2 * i, 2 * i + 2), i % 4);
  EXPECT_EQ(poputil::detectInnermostGrouping(graph, t), 2u);
  EXPECT_EQ(poputil::detectDimGroupings(graph, t).at(0), GroupingInfo(1, 2));
}

TEST(VarStructure, UngroupedAndEmptyTensors) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  // A reversed row has no two neighbours in memory order.
  Tensor t = graph.addVariable(INT, {5}, "t");
  graph.setTileMapping(t, 0);
  EXPECT_EQ(poputil::detectInnermostGrouping(graph, t.reverse(0)), 1u);
  EXPECT_TRUE(poputil::detectDimGroupings(graph, t.reverse(0)).empty());
  Tensor empty = graph.addVariable(FLOAT, {3, 0}, "empty");
  EXPECT_EQ(poputil::detectInnermostGrouping(graph, empty), 1u);
  EXPECT_TRUE(poputil::detectDimGroupings(graph, empty).empty());
}

TEST(VarStructure, ScalarIsAnError) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor s = graph.addVariable(FLOAT, {}, "s");
  graph.setTileMapping(s, 0);
  expectThrowsWith<poputil::poplibs_error>([&] { poputil::detectInnermostGrouping(graph, s); },
                                           {"poputil::detectInnermostGrouping", "scalar"});
  expectThrowsWith<poputil::poplibs_error>([&] { poputil::detectDimGroupings(graph, s); },
                                           {"poputil::detectDimGroupings", "scalar"});
}

TEST(VarStructure, EveryPartitionIsOneContiguousRegion) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  // Dimension 0: 10 in partitions of 4, 4, 2; dimension 1: 7 in 4, 3.
  Tensor t = poputil::createPartitionableTensor(graph, FLOAT, {10, 7}, {3, 2}, "p");
  EXPECT_EQ(t.shape(), (std::vector<std::size_t>{10, 7}));
  std::vector<std::vector<std::size_t>> seen, shapes;
  poputil::iterateTensorPartitions(t, {3, 2},
                                   [&](const std::vector<std::size_t> &i, const Tensor &s) {
                                     seen.push_back(i);
                                     shapes.push_back(s.shape());
                                     EXPECT_TRUE(s.isContiguous()) << i[0] << "," << i[1];
                                   });
  std::vector<std::vector<std::size_t>> wantIdx = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}};
  std::vector<std::vector<std::size_t>> wantShapes = {{4, 4}, {4, 4}, {2, 4},
                                                      {4, 3}, {4, 3}, {2, 3}};
  EXPECT_EQ(seen, wantIdx);
  EXPECT_EQ(shapes, wantShapes);
  // The whole tensor is covered once: its variables hold 70 elements.
  std::size_t covered = 0;
  for (const auto &r : t.getVarRegions())
    covered += r.interval.size();
  EXPECT_EQ(covered, 70u);
}

TEST(VarStructure, MorePartitionsThanElementsGivesEmptyOnes) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor t = poputil::createPartitionableTensor(graph, HALF, {3}, {5}, "p");
  std::vector<std::size_t> sizes;
  poputil::iterateTensorPartitions(t, {5}, [&](const std::vector<std::size_t> &, const Tensor &s) {
    sizes.push_back(s.numElements());
  });
  EXPECT_EQ(sizes, (std::vector<std::size_t>{1, 1, 1, 0, 0}));
  Tensor none = poputil::createPartitionableTensor(graph, HALF, {0, 4}, {2, 2}, "none");
  EXPECT_EQ(none.shape(), (std::vector<std::size_t>{0, 4}));
}

TEST(VarStructure, PartitionArgumentErrors) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  expectThrowsWith<poputil::poplibs_error>(
      [&] {
        poputil::createPartitionableTensor(graph, FLOAT, {4, 4}, {2}, "p");
      },
      {"poputil::createPartitionableTensor", "{4,4}", "{2}"});
  expectThrowsWith<poputil::poplibs_error>(
      [&] {
        poputil::createPartitionableTensor(graph, FLOAT, {4, 4}, {2, 0}, "p");
      },
      {"poputil::createPartitionableTensor", "{2,0}", "dimension 1"});
  Tensor t = graph.addVariable(FLOAT, {4, 4}, "t");
  expectThrowsWith<poputil::poplibs_error>(
      [&] {
        poputil::iterateTensorPartitions(t, {1, 2, 3},
                                         [](const std::vector<std::size_t> &, const Tensor &) {});
      },
      {"poputil::iterateTensorPartitions", "{4,4}", "{1,2,3}"});
}

} // namespace
