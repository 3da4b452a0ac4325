// popops::rearrange: partialTranspose against the host transpose on each vertex path, regrouping
// that keeps every value and leaves the requested grouping (read back with detectDimGroupings),
// the cases that change nothing, and the argument errors.
#include "ExpectThrows.hpp"
#include "OpHarness.hpp"

#include <poplar/Program.hpp>
#include <popops/Rearrange.hpp>
#include <poputil/VarStructure.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

namespace {

using namespace poplar;
using namespace poplar::program;
using namespace popops::rearrange;
using popsdk::test::expectThrowsWith;
using popsdk::test::hostData;
using popsdk::test::OpHarness;
using poputil::GroupingInfo;

/// A [n][c] tensor whose channels are in groups of `group` ([c/group][n][group] dim-shuffled),
/// each group on the next tile round the harness's tiles.
Tensor channelGrouped(OpHarness &h, Type type, std::size_t n, std::size_t c, std::size_t group,
                      unsigned tiles) {
  Tensor var = h.graph().addVariable(type, {c / group, n, group}, "acts");
  for (std::size_t g = 0; g < c / group; ++g)
    h.graph().setTileMapping(var[g], unsigned(g % tiles));
  return var.dimShuffle({1, 0, 2}).reshape({n, c});
}

/// A [r][c] tensor laid out column-major (its transpose is one contiguous variable) on tile 0.
Tensor columnMajor(OpHarness &h, Type type, std::size_t r, std::size_t c) {
  Tensor var = h.graph().addVariable(type, {c, r}, "colMajor");
  h.graph().setTileMapping(var, 0);
  return var.transpose();
}

TEST(Rearrange, PartialTransposeEveryVertexPath) {
  struct Case {
    Type type;
    std::vector<std::size_t> shape;
    unsigned tiles;
  };
  // float: Transpose2D; half 4x4 x 3 on one tile: Transpose1DSingleWorker; half 8x4 x 12:
  // Transpose1D; half 3x5: Transpose2D split over workers; int over two tiles.
  const std::vector<Case> cases = {{FLOAT, {2, 3, 5}, 1}, {HALF, {3, 4, 4}, 1},
                                   {HALF, {12, 8, 4}, 1}, {HALF, {7, 3, 5}, 1},
                                   {INT, {4, 2, 6}, 2},   {SHORT, {2, 2, 4, 8}, 2}};
  for (const auto &c : cases) {
    OpHarness h(c.tiles);
    std::size_t n = 1;
    for (auto d : c.shape)
      n *= d;
    auto values = hostData(c.type, n, c.type == UNSIGNED_INT ? 0 : -500, 500);
    Tensor in = h.input("in", c.type, c.shape, values);
    ComputeSet cs = h.graph().addComputeSet("transpose");
    Tensor out = partialTranspose(h.graph(), in, cs);
    h.prog().add(Execute(cs));
    h.output("out", out);
    h.run();
    const std::size_t rows = c.shape[c.shape.size() - 2], cols = c.shape.back();
    auto outShape = c.shape;
    std::swap(outShape[outShape.size() - 2], outShape.back());
    EXPECT_EQ(out.shape(), outShape);
    std::vector<double> want(n);
    for (std::size_t m = 0; m < n / (rows * cols); ++m)
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t k = 0; k < cols; ++k)
          want[m * rows * cols + k * rows + r] = values[m * rows * cols + r * cols + k];
    EXPECT_EQ(h.result("out"), want) << c.type.toString();
  }
}

TEST(Rearrange, PartialTransposeOfATensorMappedLater) {
  // The input gets its tile mapping only after the transpose is added: its matrices are
  // transposed on tile 0, so the output is still fully mapped.
  OpHarness h(2);
  Tensor in = h.graph().addVariable(FLOAT, {3, 2, 4}, "in");
  ComputeSet cs = h.graph().addComputeSet("transpose");
  Tensor out = partialTranspose(h.graph(), in, cs);
  h.graph().setTileMapping(in, 1);
  auto values = hostData(FLOAT, 24, -5, 5);
  h.write("in", in, values);
  h.prog().add(Execute(cs));
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.graph().getTileMapping(out)[0].size(), 1u);
  std::vector<double> want(24);
  for (std::size_t m = 0; m < 3; ++m)
    for (std::size_t r = 0; r < 2; ++r)
      for (std::size_t k = 0; k < 4; ++k)
        want[m * 8 + k * 2 + r] = values[m * 8 + r * 4 + k];
  EXPECT_EQ(h.result("out"), want);
}

/// Regroups `t` from `from` to `to` with regroupTensor into a Sequence and checks the values and
/// the new innermost grouping (of `to`'s dimension, a multiple of the grain dividing `to`).
void checkRegroup(OpHarness &h, Tensor t, GroupingInfo from, GroupingInfo to,
                  unsigned exactGrouping) {
  auto values = hostData(t.elementType(), t.numElements(), -200, 200);
  h.write("t", t, values);
  ComputeSet cs = h.graph().addComputeSet("regroup");
  Sequence copies;
  Tensor out = regroupTensor(h.graph(), t, copies, cs, from, to);
  h.prog().add(copies);
  h.prog().add(Execute(cs));
  h.output("out", out);
  h.run();
  EXPECT_EQ(out.shape(), t.shape());
  EXPECT_EQ(h.result("out"), values);
  // The simulated cycles of the program (host writes excluded), for docs/popops.md.
  ::testing::Test::RecordProperty("cycles", std::to_string(h.cycles()));
  auto groupings = poputil::detectDimGroupings(h.graph(), out);
  ASSERT_FALSE(groupings.empty());
  EXPECT_EQ(groupings[0].first, to.first);
  if (exactGrouping) {
    EXPECT_EQ(groupings[0].second, exactGrouping);
  } else {
    EXPECT_EQ(to.second % groupings[0].second, 0u) << groupings[0].second;
    EXPECT_EQ(groupings[0].second % getMinimumRegroupGrainSize(t.elementType()), 0u);
  }
}

TEST(Rearrange, RegroupTensorMovesTheGroupingAndKeepsValues) {
  {
    // One tile: the IPU's six workers already have more matrices than the balance rule would
    // add, so the grouping is exactly the one asked for.
    OpHarness h(1);
    checkRegroup(h, channelGrouped(h, HALF, 64, 32, 16, 1), {1, 16}, {0, 8}, 8);
  }
  {
    OpHarness h(4);
    checkRegroup(h, channelGrouped(h, FLOAT, 8, 16, 4, 4), {1, 4}, {0, 4}, 0);
  }
  {
    OpHarness h(2);
    checkRegroup(h, columnMajor(h, INT, 12, 8), {0, 12}, {1, 4}, 0);
  }
}

TEST(Rearrange, RegroupActivationsOnSixteenTiles) {
  // [N = 64][C = 256] half activations in channel groups of 16, one group per tile, regrouped
  // so that the batch is grouped by 16.
  OpHarness h(16);
  checkRegroup(h, channelGrouped(h, HALF, 64, 256, 16, 16), {1, 16}, {0, 16}, 0);
}

TEST(Rearrange, RegroupTensorIntoCopiesVector) {
  OpHarness h(1);
  Tensor t = channelGrouped(h, HALF, 32, 16, 8, 1);
  auto values = hostData(HALF, t.numElements(), -10, 10);
  h.write("t", t, values);
  ComputeSet cs = h.graph().addComputeSet("regroup");
  std::vector<Copy> copies;
  Tensor out = regroupTensor(h.graph(), t, copies, cs, {1, 8}, {0, 8});
  EXPECT_EQ(copies.size(), 1u);
  for (const auto &c : copies)
    h.prog().add(c);
  h.prog().add(Execute(cs));
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.result("out"), values);
  EXPECT_EQ(poputil::detectDimGroupings(h.graph(), out).at(0), GroupingInfo(0, 8));
}

TEST(Rearrange, RegroupIfBeneficialFollowsTheReference) {
  OpHarness h(1);
  Tensor in = channelGrouped(h, HALF, 32, 16, 8, 1); // grouped {1, 8}
  Tensor ref = columnMajor(h, HALF, 32, 16);         // grouped {0, 32}
  auto values = hostData(HALF, in.numElements(), -10, 10);
  h.write("in", in, values);
  Tensor out = regroupIfBeneficial(h.graph(), in, ref, h.prog());
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.result("out"), values);
  EXPECT_EQ(poputil::detectDimGroupings(h.graph(), out).at(0).first, 0u);
}

TEST(Rearrange, RegroupIfBeneficialToPreferredGrouping) {
  OpHarness h(1);
  Tensor in = columnMajor(h, FLOAT, 16, 8); // grouped {0, 16}
  auto values = hostData(FLOAT, in.numElements(), -10, 10);
  h.write("in", in, values);
  Tensor out = regroupIfBeneficial(h.graph(), in, 4, h.prog());
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.result("out"), values);
  EXPECT_EQ(poputil::detectDimGroupings(h.graph(), out).at(0), GroupingInfo(1, 4));
}

TEST(Rearrange, NoOpCasesReturnTheInput) {
  OpHarness h(1);
  Graph &g = h.graph();
  Tensor grouped = channelGrouped(h, HALF, 8, 16, 8, 1); // {1, 8}
  Tensor sameDim = channelGrouped(h, HALF, 8, 16, 4, 1); // {1, 4}: same dimension
  Sequence prog;
  EXPECT_TRUE(regroupIfBeneficial(g, grouped, sameDim, prog) == grouped);
  // Already grouped in the innermost dimension.
  EXPECT_TRUE(regroupIfBeneficial(g, grouped, 8, prog) == grouped);
  // A grouping that is not a multiple of the grain (half: 4) is not worth transposing.
  Tensor odd = channelGrouped(h, HALF, 8, 6, 2, 1);
  EXPECT_TRUE(regroupIfBeneficial(g, odd, columnMajor(h, HALF, 8, 6), prog) == odd);
  // Types the transposes do not take, and rank 1.
  Tensor flags = g.addVariable(BOOL, {4, 8}, "flags");
  g.setTileMapping(flags, 0);
  EXPECT_TRUE(regroupIfBeneficial(g, flags, 4, prog) == flags);
  Tensor row = g.addVariable(FLOAT, {8}, "row");
  g.setTileMapping(row, 0);
  ComputeSet cs = g.addComputeSet("cs");
  EXPECT_TRUE(regroupTensor(g, row, prog, cs, {0, 2}, {0, 4}) == row);
  EXPECT_TRUE(regroupIfPossible(g, grouped, prog, {1, 4}) == grouped);
}

TEST(Rearrange, RegroupIfPossibleRegroups) {
  OpHarness h(1);
  Tensor t = channelGrouped(h, FLOAT, 8, 8, 4, 1); // {1, 4}
  auto values = hostData(FLOAT, t.numElements(), -10, 10);
  h.write("t", t, values);
  Tensor out = regroupIfPossible(h.graph(), t, h.prog(), {0, 4});
  EXPECT_FALSE(out == t);
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.result("out"), values);
  EXPECT_EQ(poputil::detectDimGroupings(h.graph(), out).at(0).first, 0u);
}

TEST(Rearrange, ArgumentErrors) {
  OpHarness h(1);
  Graph &g = h.graph();
  Tensor t = channelGrouped(h, HALF, 8, 16, 8, 1);
  Sequence prog;
  ComputeSet cs = g.addComputeSet("cs");
  using E = poputil::poplibs_error;
  const std::string api = "popops::rearrange::regroupTensor";
  expectThrowsWith<E>(
      [&] {
        regroupTensor(g, t, prog, cs, {1, 8}, {5, 4});
      },
      {api, "'to' {5,4}", "dimension 5", "{8,16}"});
  expectThrowsWith<E>(
      [&] {
        regroupTensor(g, t, prog, cs, {1, 8}, {0, 3});
      },
      {api, "'to' {0,3}", "3 does not divide dimension 0 of size 8"});
  expectThrowsWith<E>(
      [&] {
        regroupTensor(g, t, prog, cs, {1, 0}, {0, 4});
      },
      {api, "'from' {1,0}"});
  expectThrowsWith<E>(
      [&] {
        regroupTensor(g, t, prog, cs, {1, 8}, {1, 4});
      },
      {api, "same dimension", "{1,8}", "{1,4}"});
  Tensor flags = g.addVariable(BOOL, {4, 8}, "flags");
  g.setTileMapping(flags, 0);
  expectThrowsWith<E>(
      [&] {
        regroupTensor(g, flags, prog, cs, {1, 4}, {0, 4});
      },
      {api, "bool", "not supported"});
  expectThrowsWith<E>([&] { regroupIfBeneficial(g, t, 3, prog); },
                      {"popops::rearrange::regroupIfBeneficial", "preferred grouping 3", "16"});
  expectThrowsWith<E>([&] { regroupIfBeneficial(g, t, t.transpose(), prog); },
                      {"popops::rearrange::regroupIfBeneficial", "{8,16}", "{16,8}"});
  expectThrowsWith<E>([&] { partialTranspose(g, flags, cs); },
                      {"popops::rearrange::partialTranspose", "bool"});
  Tensor row = g.addVariable(FLOAT, {8}, "row");
  expectThrowsWith<E>([&] { partialTranspose(g, row, cs); },
                      {"popops::rearrange::partialTranspose", "{8}"});
  auto inOut = [&](size_t) { return std::make_pair(t.flatten(), t.flatten()); };
  expectThrowsWith<E>([&] { addTransposeVertices(g, cs, BOOL, 4, 4, {{Interval(0, 1)}}, inOut); },
                      {"popops::rearrange::addTransposeVertices", "bool"});
  expectThrowsWith<E>([&] { addTransposeVertices(g, cs, HALF, 0, 4, {{Interval(0, 1)}}, inOut); },
                      {"popops::rearrange::addTransposeVertices", "0x4"});
  expectThrowsWith<E>([&] { addTransposeVertices(g, cs, HALF, 4, 4, {{Interval(0, 1)}}, inOut); },
                      {"popops::rearrange::addTransposeVertices", "getInOut(0)", "128", "16"});
}

// PopLibs names the mapping type as a member of Graph (addTransposeVertices' argument); the
// type existed only in the poplar namespace, so such code did not compile.
TEST(Rearrange, Regression_GraphNamesTheTileMappingType) {
  static_assert(std::is_same<Graph::TileToTensorMapping, TileToTensorMapping>::value,
                "Graph::TileToTensorMapping is poplar::TileToTensorMapping");
  OpHarness h(2);
  Tensor t = h.input("t", FLOAT, {4, 4}, std::vector<double>(16, 1.0));
  const Graph::TileToTensorMapping m = h.graph().getTileMapping(t);
  EXPECT_EQ(m.size(), 2u);
}

TEST(Rearrange, FastTransposeRuleAndGrainSizes) {
  OpHarness h(1);
  const Target &target = h.target();
  EXPECT_TRUE(canUseFastTranspose(target, HALF, 4, 4, 1));
  EXPECT_TRUE(canUseFastTranspose(target, UNSIGNED_SHORT, 8, 12, 100));
  EXPECT_FALSE(canUseFastTranspose(target, FLOAT, 4, 4, 1));
  EXPECT_FALSE(canUseFastTranspose(target, HALF, 6, 4, 1));
  EXPECT_FALSE(canUseFastTranspose(target, HALF, 4, 4, 70000));
  // A row of 700 columns needs a stride the fast kernel cannot address.
  EXPECT_FALSE(canUseFastTranspose(target, HALF, 4, 700, 1));
  EXPECT_EQ(getMinimumRegroupGrainSize(HALF), 4u);
  EXPECT_EQ(getMinimumRegroupGrainSize(SHORT), 4u);
  EXPECT_EQ(getMinimumRegroupGrainSize(FLOAT), 2u);
  EXPECT_EQ(getMinimumRegroupGrainSize(INT), 2u);
  EXPECT_EQ(getMinimumRegroupGrainSize(BOOL), 1u);
}

} // namespace
