// popops::dynamicSlice / dynamicSliceWithOutput / dynamicUpdate against the host reference
// (test/reference/Slice.hpp): offsets read on the device, at the ends, wrapping and out of range,
// over several tiles and every supported type; and their argument errors.
#include "OpHarness.hpp"
#include "Slice.hpp"
#include "SliceTestUtil.hpp"

#include <poplar/exceptions.hpp>
#include <popops/DynamicSlice.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

namespace {

using namespace poplar;
using namespace popsdk::test;
namespace ref = popsdk::reference;

struct SliceCase {
  Type type;
  std::vector<std::size_t> shape;
  std::vector<std::size_t> dims, sizes;
  std::vector<std::int64_t> offsets;
  OptionFlags options = {};
  ref::IndexRules rules = {};
  unsigned tiles = 4;
  Type offsetType = UNSIGNED_INT;
};

std::size_t count(const std::vector<std::size_t> &shape) {
  std::size_t n = 1;
  for (auto d : shape)
    n *= d;
  return n;
}

/// Runs dynamicSlice of a linearly mapped tensor and checks it against the reference.
void checkSlice(const SliceCase &c) {
  OpHarness h(c.tiles);
  auto values = testValues(c.type, count(c.shape), -20, 20);
  Tensor t = h.input("t", c.type, c.shape, values);
  Tensor offset = h.input("offset", c.offsetType, {c.offsets.size()}, asDoubles(c.offsets));
  Tensor out =
      popops::dynamicSlice(h.graph(), t, offset, c.dims, c.sizes, h.prog(), "slice", c.options);
  auto expectedShape = c.shape;
  for (std::size_t i = 0; i < c.dims.size(); ++i)
    expectedShape[c.dims[i]] = c.sizes[i];
  ASSERT_EQ(out.shape(), expectedShape);
  if (out.numElements() == 0)
    return;
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.result("out"),
            ref::dynamicSlice(values, c.shape, c.offsets, c.dims, c.sizes, c.rules));
}

TEST(PopopsDynamicSlice, EveryTypeAcrossTiles) {
  for (Type type : {FLOAT, HALF, INT, UNSIGNED_INT, BOOL}) {
    SCOPED_TRACE(type.toString());
    checkSlice({type, {10, 7}, {0}, {2}, {3}});
  }
}

TEST(PopopsDynamicSlice, OffsetsAtTheEndsWrap) {
  checkSlice({FLOAT, {9, 5}, {0}, {1}, {0}});
  checkSlice({FLOAT, {9, 5}, {0}, {1}, {8}});
  // A slice that runs past the end continues at the start.
  checkSlice({FLOAT, {9, 5}, {0}, {3}, {7}});
  checkSlice({HALF, {9, 5}, {1}, {5}, {4}});
}

TEST(PopopsDynamicSlice, InnerDimensionAndOddShapes) {
  checkSlice({FLOAT, {3, 11}, {1}, {4}, {9}});
  checkSlice({HALF, {5, 3, 7}, {2}, {3}, {6}});
  checkSlice({INT, {1, 1}, {0}, {1}, {0}});
  checkSlice({UNSIGNED_INT, {13}, {0}, {5}, {11}});
  checkSlice({BOOL, {7, 3}, {1}, {1}, {2}});
}

TEST(PopopsDynamicSlice, SeveralDimensions) {
  checkSlice({FLOAT, {4, 5, 6}, {2, 0}, {3, 2}, {4, 3}});
  checkSlice({HALF, {6, 4, 3}, {0, 1, 2}, {2, 3, 1}, {5, 2, 2}});
}

TEST(PopopsDynamicSlice, SliceLargerThanATilesShare) {
  // 64 x 40 floats over 8 tiles: each row spans several tiles and a 48-row slice moves most of
  // the tensor.
  checkSlice({FLOAT, {64, 40}, {0}, {48}, {30}, {}, {}, 8});
  checkSlice({HALF, {40, 64}, {1}, {50}, {33}, {}, {}, 8});
}

TEST(PopopsDynamicSlice, FullAndEmptySlices) {
  checkSlice({FLOAT, {6, 4}, {0}, {6}, {2}});
  checkSlice({FLOAT, {6, 4}, {0}, {0}, {2}});
  checkSlice({FLOAT, {6, 4}, {}, {}, {}});
}

TEST(PopopsDynamicSlice, OutOfRangeOffsets) {
  // Beyond the dimension: zeros, unless remapped to 0.
  checkSlice({FLOAT, {6, 4}, {0}, {2}, {6}});
  checkSlice({FLOAT, {6, 4}, {0}, {2}, {100}});
  checkSlice({FLOAT, {6, 4}, {0}, {2}, {100}, {{"remapOutOfBoundIndices", "true"}}, {true, false}});
  // The padding index (the dimension's size) gives zeros even with remapping.
  checkSlice({FLOAT,
              {6, 4},
              {0},
              {2},
              {6},
              {{"remapOutOfBoundIndices", "true"}, {"paddingIndexUsed", "true"}},
              {true, true}});
  checkSlice({HALF,
              {6, 4},
              {0},
              {1},
              {7},
              {{"remapOutOfBoundIndices", "true"}, {"paddingIndexUsed", "true"}},
              {true, true}});
  // INT offsets: a negative one is out of range.
  SliceCase negative{INT, {6, 4}, {0}, {2}, {-1}};
  negative.offsetType = INT;
  checkSlice(negative);
  SliceCase intOffset{FLOAT, {6, 4}, {1}, {2}, {3}};
  intOffset.offsetType = INT;
  checkSlice(intOffset);
}

TEST(PopopsDynamicSlice, SliceableTensorIsSpreadAndSlicedInPlace) {
  OpHarness h(4);
  Tensor t = popops::createSliceableTensor(h.graph(), FLOAT, {20, 9}, {0}, {1}, 0, "t");
  // The columns spread over the tiles, every row of a column on one tile.
  auto mapping = h.graph().getTileMapping(t);
  unsigned used = 0;
  for (const auto &m : mapping)
    used += !m.empty();
  EXPECT_GE(used, 3u);
  for (std::size_t c = 0; c < 9; ++c) {
    auto colMapping = h.graph().getTileMapping(t.slice(c, c + 1, 1));
    unsigned tiles = 0;
    for (const auto &m : colMapping)
      tiles += !m.empty();
    EXPECT_EQ(tiles, 1u) << "column " << c;
  }
  auto values = hostData(FLOAT, 180, -5, 5);
  h.write("t", t, values);
  Tensor offset = h.input("offset", UNSIGNED_INT, {1}, {19});
  Tensor out = popops::dynamicSlice(h.graph(), t, offset, {0}, {1}, h.prog());
  // The slice lies where its columns do: no exchange needed.
  EXPECT_EQ(h.graph().getTileMapping(out), h.graph().getTileMapping(t[0].expand({0})));
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.result("out"), ref::dynamicSlice(values, {20, 9}, {19}, {0}, {1}));
}

TEST(PopopsDynamicSlice, SliceableTensorFromSliceAndSliceMapping) {
  OpHarness h(4);
  auto &g = h.graph();
  Tensor s = g.addVariable(FLOAT, {1, 8}, "slice");
  for (unsigned c = 0; c < 8; ++c)
    g.setTileMapping(s[0][c], 3 - c / 2);
  Tensor t = popops::createSliceableTensorFromSlice(g, s, {0}, {5}, "fromSlice");
  EXPECT_EQ(t.shape(), (std::vector<std::size_t>{5, 8}));
  for (unsigned row = 0; row < 5; ++row)
    EXPECT_EQ(g.getTileMapping(t[row]), g.getTileMapping(s[0])) << "row " << row;
  EXPECT_EQ(popops::getSliceMapping(g, t, {0}, {1}), g.getTileMapping(s));
  // Sliced at run time, it reads what was written.
  auto values = hostData(FLOAT, 40, -5, 5);
  h.write("t", t, values);
  Tensor offset = h.input("offset", UNSIGNED_INT, {1}, {3});
  Tensor out = popops::dynamicSlice(g, t, offset, {0}, {1}, h.prog());
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.result("out"), ref::dynamicSlice(values, {5, 8}, {3}, {0}, {1}));
  Tensor two =
      popops::createSliceableTensorFromSlice(g, g.addVariable(HALF, {2, 3, 1}), {2, 0}, {4, 3});
  EXPECT_EQ(two.shape(), (std::vector<std::size_t>{6, 3, 4}));
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>([&] { popops::createSliceableTensorFromSlice(g, s, {0}, {0}); },
                                  {"popops::createSliceableTensorFromSlice", "numSlices {0}"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::createSliceableTensorFromSlice(g, s, {2}, {3}); },
      {"popops::createSliceableTensorFromSlice", "dimension 2", "{1,8}"});
  expectThrowsWith<poplibs_error>([&] { popops::getSliceMapping(g, t, {0}, {6}); },
                                  {"popops::getSliceMapping", "slice size 6", "{5,8}"});
}

TEST(PopopsDynamicSlice, WithOutput) {
  OpHarness h(3);
  auto values = hostData(HALF, 5 * 8, -3, 3);
  Tensor t = h.input("t", HALF, {5, 8}, values);
  Tensor offset = h.input("offset", UNSIGNED_INT, {2}, {4, 6});
  Tensor out = popops::createSliceTensor(h.graph(), t, {0, 1}, {2, 3}, 1, "out")[0];
  popops::dynamicSliceWithOutput(h.graph(), out, t, offset, {0, 1}, {2, 3}, h.prog());
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.result("out"), ref::dynamicSlice(values, {5, 8}, {4, 6}, {0, 1}, {2, 3}));
}

// ---- dynamicUpdate --------------------------------------------------------------------------

void checkUpdate(const SliceCase &c) {
  OpHarness h(c.tiles);
  auto values = testValues(c.type, count(c.shape), -20, 20, 1);
  auto sliceShape = c.shape;
  for (std::size_t i = 0; i < c.dims.size(); ++i)
    sliceShape[c.dims[i]] = c.sizes[i];
  auto update = testValues(c.type, count(sliceShape), 30, 60, 2);
  Tensor t = h.input("t", c.type, c.shape, values);
  Tensor s = h.input("s", c.type, sliceShape, update);
  Tensor offset = h.input("offset", c.offsetType, {c.offsets.size()}, asDoubles(c.offsets));
  popops::dynamicUpdate(h.graph(), t, s, offset, c.dims, c.sizes, h.prog(), "update", c.options);
  h.output("t", t);
  h.run();
  EXPECT_EQ(h.result("t"),
            ref::dynamicUpdate(values, c.shape, update, c.offsets, c.dims, c.sizes, c.rules));
}

TEST(PopopsDynamicUpdate, EveryTypeAcrossTiles) {
  for (Type type : {FLOAT, HALF, INT, UNSIGNED_INT, BOOL}) {
    SCOPED_TRACE(type.toString());
    checkUpdate({type, {10, 7}, {0}, {2}, {3}});
  }
}

TEST(PopopsDynamicUpdate, EndsWrapAndSeveralDimensions) {
  checkUpdate({FLOAT, {9, 5}, {0}, {3}, {8}});
  checkUpdate({HALF, {3, 11}, {1}, {4}, {10}});
  checkUpdate({FLOAT, {4, 5, 6}, {2, 0}, {3, 2}, {4, 3}});
  checkUpdate({INT, {64, 40}, {0}, {48}, {30}, {}, {}, 8});
}

TEST(PopopsDynamicUpdate, OutOfRangeChangesNothingUnlessRemapped) {
  checkUpdate({FLOAT, {6, 4}, {0}, {2}, {6}});
  checkUpdate({FLOAT, {6, 4}, {0}, {2}, {9}, {{"remapOutOfBoundIndices", "true"}}, {true, false}});
  checkUpdate({FLOAT,
               {6, 4},
               {0},
               {1},
               {6},
               {{"remapOutOfBoundIndices", "true"}, {"paddingIndexUsed", "true"}},
               {true, true}});
  SliceCase negative{HALF, {6, 4}, {1}, {2}, {-3}};
  negative.offsetType = INT;
  checkUpdate(negative);
  // One offset of several out of range: nothing changes, whichever dimension is sliced first.
  checkUpdate({FLOAT, {5, 6, 4}, {0, 2}, {2, 3}, {1, 4}});
  checkUpdate({FLOAT, {5, 6, 4}, {0, 2}, {2, 3}, {5, 1}});
  checkUpdate({FLOAT, {5, 6, 4}, {2, 1}, {1, 5}, {9, 2}});
}

// ---- Errors ---------------------------------------------------------------------------------

TEST(PopopsDynamicSlice, Errors) {
  OpHarness h(2);
  auto &g = h.graph();
  auto &p = h.prog();
  Tensor t = h.input("t", FLOAT, {4, 6}, hostData(FLOAT, 24, 0, 1));
  Tensor off1 = h.input("off1", UNSIGNED_INT, {1}, {0});
  Tensor off2 = h.input("off2", UNSIGNED_INT, {2}, {0, 0});
  Tensor offRank2 = h.input("offRank2", UNSIGNED_INT, {1, 1}, {0});
  Tensor offFloat = h.input("offFloat", FLOAT, {1}, {0});
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>([&] { popops::dynamicSlice(g, t, off1, {2}, {1}, p); },
                                  {"popops::dynamicSlice", "dimension 2", "{4,6}"});
  expectThrowsWith<poplibs_error>([&] { popops::dynamicSlice(g, t, off1, {1}, {7}, p); },
                                  {"popops::dynamicSlice", "slice size 7", "dimension 1", "(6)"});
  expectThrowsWith<poplibs_error>([&] { popops::dynamicSlice(g, t, offRank2, {0}, {1}, p); },
                                  {"popops::dynamicSlice", "offset", "{1,1}", "1-D"});
  expectThrowsWith<poplibs_error>([&] { popops::dynamicSlice(g, t, offFloat, {0}, {1}, p); },
                                  {"popops::dynamicSlice", "offset", "float"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::dynamicSlice(g, t, off1, {0, 1}, {1, 1}, p);
      },
      {"popops::dynamicSlice", "{1}", "{0,1}"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::dynamicSlice(g, t, off2, {0, 0}, {1, 1}, p);
      },
      {"popops::dynamicSlice", "dimension 0", "twice"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::dynamicSlice(g, t, off1, {0}, {1, 2}, p);
      },
      {"popops::dynamicSlice", "{0}", "{1,2}"});
  Tensor wrongOut = g.addVariable(FLOAT, {2, 6});
  g.setTileMapping(wrongOut, 0);
  expectThrowsWith<poplibs_error>(
      [&] { popops::dynamicSliceWithOutput(g, wrongOut, t, off1, {0}, {1}, p); },
      {"popops::dynamicSliceWithOutput", "output", "{2,6}", "{1,6}"});
  Tensor halfS = g.addVariable(HALF, {1, 6});
  g.setTileMapping(halfS, 0);
  expectThrowsWith<poplibs_error>([&] { popops::dynamicUpdate(g, t, halfS, off1, {0}, {1}, p); },
                                  {"popops::dynamicUpdate", "half", "float"});
  expectThrowsWith<poplibs_error>([&] { popops::dynamicUpdate(g, t, wrongOut, off1, {0}, {1}, p); },
                                  {"popops::dynamicUpdate", "{2,6}", "{1,6}"});
  expectThrowsWith<invalid_option>(
      [&] {
        popops::dynamicSlice(g, t, off1, {0}, {1}, p, {}, {{"remapOutOfBoundIndices", "yes"}});
      },
      {"popops::dynamicSlice", "remapOutOfBoundIndices", "yes"});
  expectThrowsWith<invalid_option>(
      [&] {
        popops::dynamicSlice(g, t, off1, {0}, {1}, p, {}, {{"noSuchOption", "1"}});
      },
      {"popops::dynamicSlice", "noSuchOption"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::createSliceableTensor(g, FLOAT, {4, 6}, {0}, {5});
      },
      {"popops::createSliceableTensor", "slice size 5", "(4)"});
  // 2^40 x 2^40 rows and columns once multiplied to 0 and made an empty tensor.
  const std::size_t big = std::size_t(1) << 40;
  expectThrowsWith<overflow_error>(
      [&] {
        popops::createSliceableTensor(g, FLOAT, {big, big}, {0}, {1});
      },
      {"popops::createSliceableTensor", "{1099511627776,1099511627776}"});
  expectThrowsWith<overflow_error>(
      [&] {
        popops::createSliceTensor(g, FLOAT, {big, big}, {0}, {1}, 2, popops::SlicePlan(), {});
      },
      {"popops::createSliceTensor", "{1099511627776,1099511627776}"});
}

} // namespace
