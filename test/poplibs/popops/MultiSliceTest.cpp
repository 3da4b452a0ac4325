// popops::multiSlice / multiUpdate / multiUpdateAdd / multiUpdateMax and the slice-tensor creators
// against the host reference (test/reference/Slice.hpp): indices read on the device, duplicates,
// out-of-range and padding indices, planned and linearly mapped tensors; and their errors.
#include "OpHarness.hpp"
#include "Slice.hpp"
#include "SliceTestUtil.hpp"

#include <poplar/exceptions.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Gather.hpp>
#include <popops/Scatter.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

#include <sstream>

namespace {

using namespace poplar;
using namespace popsdk::test;
namespace ref = popsdk::reference;

struct MultiCase {
  Type type;
  std::vector<std::size_t> shape;
  std::size_t dim;
  std::vector<std::int64_t> indices;
  OptionFlags options = {};
  ref::IndexRules rules = {};
  unsigned tiles = 4;
  Type indexType = UNSIGNED_INT;
};

void checkMultiSlice(const MultiCase &c) {
  OpHarness h(c.tiles);
  auto values = testValues(c.type, elementCount(c.shape), -9, 9);
  Tensor t = h.input("t", c.type, c.shape, values);
  Tensor idx = h.input("idx", c.indexType, {c.indices.size(), 1}, asDoubles(c.indices));
  Tensor out = popops::multiSlice(h.graph(), t, idx, {c.dim}, {1}, h.prog(), popops::SlicePlan(),
                                  c.options, "multiSlice");
  std::vector<std::size_t> shape{c.indices.size()};
  for (std::size_t d = 0; d < c.shape.size(); ++d)
    shape.push_back(d == c.dim ? 1 : c.shape[d]);
  ASSERT_EQ(out.shape(), shape);
  if (out.numElements() == 0)
    return;
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.result("out"), ref::multiSlice(values, c.shape, c.indices, c.dim, c.rules));
}

TEST(PopopsMultiSlice, EveryTypeAcrossTiles) {
  for (Type type : {FLOAT, HALF, INT, UNSIGNED_INT, BOOL}) {
    SCOPED_TRACE(type.toString());
    checkMultiSlice({type, {12, 5}, 0, {3, 0, 11, 3, 7}});
  }
}

TEST(PopopsMultiSlice, ShapesAndDimensions) {
  checkMultiSlice({FLOAT, {4, 9}, 1, {8, 0, 4}});
  checkMultiSlice({HALF, {3, 7, 5}, 1, {6, 6, 1, 0}});
  checkMultiSlice({INT, {1, 1}, 0, {0}});
  checkMultiSlice({FLOAT, {17}, 0, {16, 2, 9}});
  // Many indices into short rows: the workers share the indices (whole-word rows) or one worker
  // copies them all (half rows of odd length).
  std::vector<std::int64_t> many;
  for (int i = 0; i < 23; ++i)
    many.push_back((i * 7) % 50);
  checkMultiSlice({FLOAT, {50, 2}, 0, many});
  checkMultiSlice({HALF, {50, 3}, 0, many});
  checkMultiSlice({BOOL, {50, 5}, 0, many});
  // Rows wider than a tile's share: 40 columns of 64 entries over 8 tiles.
  checkMultiSlice({FLOAT, {64, 40}, 0, many, {}, {}, 8});
  checkMultiSlice({FLOAT, {6, 4}, 0, {}});
}

TEST(PopopsMultiSlice, OutOfRangeAndPaddingIndices) {
  checkMultiSlice({FLOAT, {6, 4}, 0, {6, 2, 1000, 5}});
  checkMultiSlice(
      {HALF, {6, 4}, 0, {6, 2, 1000, 5}, {{"remapOutOfBoundIndices", "true"}}, {true, false}});
  checkMultiSlice({FLOAT,
                   {6, 4},
                   0,
                   {6, 2, 7},
                   {{"remapOutOfBoundIndices", "true"}, {"paddingIndexUsed", "true"}},
                   {true, true}});
  MultiCase negative{INT, {6, 4}, 1, {-1, 3, 2}};
  negative.indexType = INT;
  checkMultiSlice(negative);
}

TEST(PopopsMultiSlice, PlannedTensorsNeedNoExchange) {
  OpHarness h(4);
  auto &g = h.graph();
  auto plan = popops::embedding::plan(g, FLOAT, 30, 10, {6}, {});
  Tensor t = popops::createSliceableTensor(g, FLOAT, {30, 10}, {0}, {1}, plan, {}, "embedding");
  Tensor idx = popops::createIndicesTensor(g, {0}, 6, plan, {}, "indices");
  Tensor out = popops::createSliceTensor(g, FLOAT, {30, 10}, {0}, {1}, 6, plan, {}, "slices");
  EXPECT_EQ(idx.shape(), (std::vector<std::size_t>{6, 1}));
  EXPECT_EQ(idx.elementType(), UNSIGNED_INT);
  EXPECT_EQ(out.shape(), (std::vector<std::size_t>{6, 1, 10}));
  // Each slice lies on the tiles that hold its columns of the embedding.
  auto columns = g.getTileMapping(t[0]);
  for (std::size_t i = 0; i < 6; ++i)
    EXPECT_EQ(g.getTileMapping(out[i][0]), columns) << "slice " << i;
  auto values = hostData(FLOAT, 300, -1, 1);
  std::vector<std::int64_t> indices{29, 0, 13, 13, 4, 30};
  h.write("t", t, values);
  h.write("idx", idx, asDoubles(indices));
  Tensor result = popops::multiSlice(g, t, idx, {0}, {1}, h.prog(), plan, {});
  EXPECT_EQ(g.getTileMapping(result), g.getTileMapping(out));
  h.output("out", result);
  h.run();
  EXPECT_EQ(h.result("out"), ref::multiSlice(values, {30, 10}, indices, 0));
}

TEST(PopopsMultiSlice, ConstantIndices) {
  OpHarness h(3);
  auto values = hostData(HALF, 8 * 6, -4, 4);
  Tensor t = h.input("t", HALF, {8, 6}, values);
  std::vector<unsigned> indices{7, 1, 9, 1};
  Tensor out = popops::multiSlice(h.graph(), t, indices, 1, h.prog());
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.result("out"), ref::multiSlice(values, {8, 6}, {7, 1, 9, 1}, 1));
}

// ---- gather ---------------------------------------------------------------------------------

void checkGather(Type type, const std::vector<std::size_t> &shape, unsigned axis,
                 const std::vector<std::size_t> &indexShape,
                 const std::vector<std::int64_t> &indices, bool createInput = false) {
  OpHarness h(4);
  auto values = testValues(type, elementCount(shape), -9, 9);
  Tensor t;
  if (createInput) {
    t = popops::createGatherInput(h.graph(), type, shape, axis, {}, "input");
    h.write("t", t, values);
  } else {
    t = h.input("t", type, shape, values);
  }
  Tensor idx = h.input("idx", UNSIGNED_INT, indexShape, asDoubles(indices));
  Tensor out = popops::gather(h.graph(), t, idx, axis, h.prog(), {}, "gather");
  std::vector<std::size_t> expectedShape(shape.begin(), shape.begin() + axis);
  expectedShape.insert(expectedShape.end(), indexShape.begin(), indexShape.end());
  expectedShape.insert(expectedShape.end(), shape.begin() + axis + 1, shape.end());
  ASSERT_EQ(out.shape(), expectedShape);
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.result("out"), ref::gather(values, shape, indices, axis));
}

TEST(PopopsGather, AxesIndexShapesAndOutOfRange) {
  checkGather(FLOAT, {10, 4}, 0, {3}, {9, 0, 4});
  checkGather(HALF, {3, 8, 5}, 1, {2, 2}, {7, 0, 3, 3}, true);
  checkGather(INT, {6, 7}, 1, {4}, {6, 7, 100, 0});
  checkGather(UNSIGNED_INT, {5}, 0, {2, 1}, {4, 1}, true);
}

TEST(PopopsGather, Errors) {
  OpHarness h(2);
  Tensor t = h.input("t", FLOAT, {6, 4}, hostData(FLOAT, 24, 0, 1));
  Tensor idx = h.input("idx", UNSIGNED_INT, {3}, {0, 1, 2});
  Tensor idxFloat = h.input("idxFloat", FLOAT, {3}, {0, 1, 2});
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>([&] { popops::gather(h.graph(), t, idx, 2, h.prog(), {}); },
                                  {"popops::gather", "axis 2", "{6,4}"});
  expectThrowsWith<poplibs_error>([&] { popops::gather(h.graph(), t, idxFloat, 0, h.prog(), {}); },
                                  {"popops::gather", "indices", "float"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::createGatherInput(h.graph(), FLOAT, {6, 4}, 3);
      },
      {"popops::createGatherInput", "axis 3", "{6,4}"});
}

// ---- scatter --------------------------------------------------------------------------------

struct ScatterCase {
  std::vector<std::size_t> shape, indexShape, updateShape;
  std::vector<std::int64_t> indices;
  std::size_t indexVectorDim;
  std::vector<unsigned> updateWindowDims;
  std::vector<std::size_t> insertWindowDims;
  std::vector<unsigned> scatterDimsToOperandDims;
};

void checkScatter(const ScatterCase &c, bool add) {
  OpHarness h(4);
  auto operand = testValues(FLOAT, elementCount(c.shape), -9, 9, 1);
  auto updates = testValues(FLOAT, elementCount(c.updateShape), -9, 9, 2);
  Tensor t = h.input("t", FLOAT, c.shape, operand);
  Tensor idx = h.input("idx", INT, c.indexShape, asDoubles(c.indices));
  Tensor u = h.input("u", FLOAT, c.updateShape, updates);
  if (add) {
    popops::UpdateComputationFunc sum = [](Graph &g, Tensor &a, Tensor &b,
                                           program::Sequence &prog) {
      return popops::add(g, a, b, prog);
    };
    popops::scatter(h.graph(), t, idx, u, c.indexVectorDim, c.updateWindowDims, c.insertWindowDims,
                    c.scatterDimsToOperandDims, sum, h.prog());
  } else {
    popops::scatter(h.graph(), t, idx, u, c.indexVectorDim, c.updateWindowDims, c.insertWindowDims,
                    c.scatterDimsToOperandDims, h.prog());
  }
  h.output("t", t);
  h.run();
  EXPECT_EQ(h.result("t"), ref::scatter(operand, c.shape, c.indices, c.indexShape, updates,
                                        c.updateShape, c.indexVectorDim, c.updateWindowDims,
                                        c.insertWindowDims, c.scatterDimsToOperandDims, add));
}

TEST(PopopsScatter, RowsWindowsAndPoints) {
  // Rows of a [5, 4] matrix at 3 indices (the TensorFlow scatter_nd pattern), one out of range.
  ScatterCase rows{{5, 4}, {3}, {3, 4}, {4, 0, 7}, 1, {1}, {0}, {0}};
  checkScatter(rows, false);
  checkScatter(rows, true);
  // Columns: index vector along dim 0 of [1, 2] indices, windows of [3] into a [3, 6] operand.
  checkScatter({{3, 6}, {1, 2}, {2, 3}, {5, 1}, 0, {1}, {1}, {1}}, false);
  // Single elements of a [4, 5] operand by (row, column) pairs, duplicates accumulating.
  ScatterCase points{{4, 5}, {3, 2}, {3}, {1, 2, 3, 4, 1, 2}, 1, {}, {0, 1}, {0, 1}};
  checkScatter(points, false);
  checkScatter(points, true);
  // 2x2 windows of a [4, 4] operand at two (row, column) starts.
  checkScatter({{4, 4}, {2, 2}, {2, 2, 2}, {0, 0, 2, 1}, 1, {1, 2}, {}, {0, 1}}, true);
}

TEST(PopopsScatter, Errors) {
  OpHarness h(2);
  Tensor t = h.input("t", FLOAT, {5, 4}, hostData(FLOAT, 20, 0, 1));
  Tensor idx = h.input("idx", INT, {3}, {0, 1, 2});
  Tensor u = h.input("u", FLOAT, {3, 4}, hostData(FLOAT, 12, 0, 1));
  Tensor uWrong = h.input("uWrong", FLOAT, {2, 4}, hostData(FLOAT, 8, 0, 1));
  Tensor uHalf = h.input("uHalf", HALF, {3, 4}, hostData(HALF, 12, 0, 1));
  auto &g = h.graph();
  auto &p = h.prog();
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>([&] { popops::scatter(g, t, idx, uWrong, 1, {1}, {0}, {0}, p); },
                                  {"popops::scatter", "{2,4}", "{2}", "{3}"});
  expectThrowsWith<poplibs_error>([&] { popops::scatter(g, t, idx, uHalf, 1, {1}, {0}, {0}, p); },
                                  {"popops::scatter", "half", "float"});
  expectThrowsWith<poplibs_error>([&] { popops::scatter(g, t, idx, u, 1, {1}, {0}, {2}, p); },
                                  {"popops::scatter", "scatterDimsToOperandDims", "{2}"});
  expectThrowsWith<poplibs_error>([&] { popops::scatter(g, t, idx, u, 1, {1}, {}, {0}, p); },
                                  {"popops::scatter", "rank 2"});
  expectThrowsWith<poplibs_error>([&] { popops::scatter(g, t, idx, u, 3, {1}, {0}, {0}, p); },
                                  {"popops::scatter", "indexVectorDim 3"});
}

// ---- Updates ----------------------------------------------------------------------------------

struct UpdateCase {
  ref::UpdateOp op;
  Type type;
  std::vector<std::size_t> shape;
  std::size_t dim;
  std::vector<std::int64_t> indices;
  Type scaleType = FLOAT;
  double scale = 1;
  OptionFlags options = {};
  ref::IndexRules rules = {};
  unsigned tiles = 4;
};

void checkUpdate(const UpdateCase &c) {
  OpHarness h(c.tiles);
  auto &g = h.graph();
  auto values = testValues(c.type, elementCount(c.shape), -9, 9, 1);
  std::vector<std::size_t> sShape{c.indices.size()};
  for (std::size_t d = 0; d < c.shape.size(); ++d)
    sShape.push_back(d == c.dim ? 1 : c.shape[d]);
  auto update = testValues(c.type, elementCount(sShape), -9, 9, 2);
  Tensor t = h.input("t", c.type, c.shape, values);
  Tensor s = h.input("s", c.type, sShape, update);
  Tensor idx = h.input("idx", UNSIGNED_INT, {c.indices.size(), 1}, asDoubles(c.indices));
  popops::SlicePlan plan;
  switch (c.op) {
  case ref::UpdateOp::Copy:
    popops::multiUpdate(g, t, s, idx, {c.dim}, {1}, h.prog(), plan, c.options);
    break;
  case ref::UpdateOp::Add: {
    Tensor scale = h.input("scale", c.scaleType, {}, {c.scale});
    popops::multiUpdateAdd(g, t, s, idx, scale, {c.dim}, {1}, h.prog(), plan, c.options);
    break;
  }
  case ref::UpdateOp::Max:
    popops::multiUpdateMax(g, t, s, idx, {c.dim}, {1}, h.prog(), plan, c.options);
    break;
  case ref::UpdateOp::Mul:
    popops::multiUpdateMul(g, t, s, idx, {c.dim}, {1}, h.prog(), plan, c.options);
    break;
  }
  h.output("t", t);
  h.run();
  EXPECT_EQ(h.result("t"), ref::multiUpdate(values, c.shape, update, c.indices, c.dim, c.op,
                                            c.scale, c.type, c.rules));
}

TEST(PopopsMultiUpdate, EveryTypeDuplicatesInOrder) {
  for (Type type : {FLOAT, HALF, INT, UNSIGNED_INT, BOOL}) {
    SCOPED_TRACE(type.toString());
    checkUpdate({ref::UpdateOp::Copy, type, {12, 5}, 0, {3, 0, 11, 3, 7}});
  }
  checkUpdate({ref::UpdateOp::Copy, HALF, {5, 9}, 1, {8, 8, 0}});
  checkUpdate({ref::UpdateOp::Copy, FLOAT, {64, 40}, 0, {63, 1, 63, 20}, FLOAT, 1, {}, {}, 8});
}

TEST(PopopsMultiUpdate, OutOfRangeIndicesAreIgnored) {
  checkUpdate({ref::UpdateOp::Copy, FLOAT, {6, 4}, 0, {6, 2, 1000}});
  checkUpdate({ref::UpdateOp::Copy,
               FLOAT,
               {6, 4},
               0,
               {6, 2, 1000},
               FLOAT,
               1,
               {{"remapOutOfBoundIndices", "true"}, {"paddingIndexUsed", "true"}},
               {true, true}});
}

TEST(PopopsMultiUpdateAdd, ScalesTypesAndDuplicates) {
  checkUpdate({ref::UpdateOp::Add, FLOAT, {12, 5}, 0, {3, 0, 11, 3, 3}, FLOAT, 0.5});
  checkUpdate({ref::UpdateOp::Add, HALF, {12, 5}, 0, {3, 0, 11, 3}, HALF, -2});
  checkUpdate({ref::UpdateOp::Add, HALF, {7, 3}, 1, {2, 2, 0}, FLOAT, 0.25});
  checkUpdate({ref::UpdateOp::Add, INT, {12, 5}, 0, {1, 1, 1}, INT, 3});
  checkUpdate({ref::UpdateOp::Add, UNSIGNED_INT, {4, 6}, 1, {5, 0}, UNSIGNED_INT, 2});
  checkUpdate({ref::UpdateOp::Add, FLOAT, {6, 4}, 0, {6, 9, 2}, FLOAT, 1});
  checkUpdate({ref::UpdateOp::Add, FLOAT, {40, 64}, 1, {63, 0, 63}, FLOAT, 1.5, {}, {}, 8});
}

TEST(PopopsMultiUpdateAdd, ConstantIndices) {
  OpHarness h(2);
  auto values = hostData(FLOAT, 6 * 4, -9, 9, 1);
  auto update = hostData(FLOAT, 3 * 4, -9, 9, 2);
  Tensor t = h.input("t", FLOAT, {6, 4}, values);
  Tensor s = h.input("s", FLOAT, {3, 1, 4}, update);
  Tensor scale = h.input("scale", FLOAT, {1}, {2});
  std::vector<unsigned> indices{5, 5, 0};
  popops::multiUpdateAdd(h.graph(), t, s, indices, scale, 0, h.prog());
  h.output("t", t);
  h.run();
  EXPECT_EQ(h.result("t"),
            ref::multiUpdate(values, {6, 4}, update, {5, 5, 0}, 0, ref::UpdateOp::Add, 2, FLOAT));
}

TEST(PopopsMultiUpdateMax, TypesAndDuplicates) {
  for (Type type : {FLOAT, HALF, INT, UNSIGNED_INT}) {
    SCOPED_TRACE(type.toString());
    checkUpdate({ref::UpdateOp::Max, type, {12, 5}, 0, {3, 0, 11, 3, 7, 3}});
  }
  checkUpdate({ref::UpdateOp::Max, FLOAT, {6, 4}, 1, {4, 3}});
}

TEST(PopopsMultiUpdateMul, TypesDuplicatesAndOutOfRange) {
  for (Type type : {FLOAT, HALF, INT, UNSIGNED_INT}) {
    SCOPED_TRACE(type.toString());
    checkUpdate({ref::UpdateOp::Mul, type, {12, 5}, 0, {3, 0, 11, 3, 7, 3}});
  }
  checkUpdate({ref::UpdateOp::Mul, HALF, {5, 7}, 1, {6, 0, 7, 6}});
  checkUpdate({ref::UpdateOp::Mul, FLOAT, {64, 40}, 0, {63, 1, 63, 20}, FLOAT, 1, {}, {}, 8});
  checkUpdate({ref::UpdateOp::Mul, FLOAT, {6, 4}, 0, {}});
}

// ---- Plans and errors -------------------------------------------------------------------------

TEST(PopopsMultiSlice, PlansCompareAndPrint) {
  OpHarness h(1);
  auto a = popops::embedding::plan(h.graph(), HALF, 100, 16, {4, 8}, {});
  auto b = popops::embedding::plan(h.graph(), HALF, 100, 16, {4, 8}, {});
  auto c = popops::embedding::plan(h.graph(), FLOAT, 100, 16, {4, 8}, {});
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_TRUE(a < c || c < a);
  popops::SlicePlan copy = a, moved = std::move(b), empty;
  EXPECT_EQ(copy, moved);
  EXPECT_NE(empty, a);
  std::ostringstream os;
  os << a;
  EXPECT_NE(os.str().find("numEntries=100"), std::string::npos) << os.str();
}

TEST(PopopsMultiSlice, Errors) {
  OpHarness h(2);
  auto &g = h.graph();
  auto &p = h.prog();
  popops::SlicePlan plan;
  Tensor t = h.input("t", FLOAT, {6, 4}, hostData(FLOAT, 24, 0, 1));
  Tensor idx = h.input("idx", UNSIGNED_INT, {3, 1}, {0, 1, 2});
  Tensor idx1d = h.input("idx1d", UNSIGNED_INT, {3}, {0, 1, 2});
  Tensor idx2 = h.input("idx2", UNSIGNED_INT, {3, 2}, {0, 1, 2, 0, 1, 2});
  Tensor idxHalf = h.input("idxHalf", HALF, {3, 1}, {0, 1, 2});
  Tensor s = h.input("s", FLOAT, {3, 1, 4}, hostData(FLOAT, 12, 0, 1));
  Tensor sWrong = h.input("sWrong", FLOAT, {2, 1, 4}, hostData(FLOAT, 8, 0, 1));
  Tensor scaleInt = h.input("scaleInt", INT, {1}, {1});
  Tensor scale2 = h.input("scale2", FLOAT, {2}, {1, 1});
  Tensor b = h.input("b", BOOL, {6, 4}, hostData(BOOL, 24, 0, 1));
  Tensor sb = h.input("sb", BOOL, {3, 1, 4}, hostData(BOOL, 12, 0, 1));
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>([&] { popops::multiSlice(g, t, idx1d, {0}, {1}, p, plan, {}); },
                                  {"popops::multiSlice", "offsets", "{3}", "[numIndices, 1]"});
  expectThrowsWith<poplibs_error>([&] { popops::multiSlice(g, t, idx2, {0}, {1}, p, plan, {}); },
                                  {"popops::multiSlice", "{3,2}"});
  expectThrowsWith<poplibs_error>([&] { popops::multiSlice(g, t, idxHalf, {0}, {1}, p, plan, {}); },
                                  {"popops::multiSlice", "offsets", "half", "unsigned int or int"});
  expectThrowsWith<poplibs_error>([&] { popops::multiSlice(g, t, idx, {2}, {1}, p, plan, {}); },
                                  {"popops::multiSlice", "dimension 2", "{6,4}"});
  expectThrowsWith<poplibs_error>([&] { popops::multiSlice(g, t, idx, {0}, {2}, p, plan, {}); },
                                  {"popops::multiSlice", "slice size 2"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::multiSlice(g, t, idx, {0, 1}, {1, 1}, p, plan, {});
      },
      {"popops::multiSlice", "{0,1}", "one entry"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::multiUpdate(g, t, sWrong, idx, {0}, {1}, p, plan, {}); },
      {"popops::multiUpdate", "s", "{2,1,4}", "{3,1,4}"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::multiUpdateAdd(g, t, s, idx, scaleInt, {0}, {1}, p, plan, {}); },
      {"popops::multiUpdateAdd", "scale", "int", "float"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::multiUpdateAdd(g, t, s, idx, scale2, {0}, {1}, p, plan, {}); },
      {"popops::multiUpdateAdd", "scale", "{2}"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::multiUpdateMax(g, b, sb, idx, {0}, {1}, p, plan, {}); },
      {"popops::multiUpdateMax", "bool"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::embedding::plan(g, FLOAT, 6, 4, {3},
                                {{"usedForSlice", "false"}, {"usedForUpdate", "false"}});
      },
      {"popops::embedding::plan", "usedForSlice", "usedForUpdate"});
  auto halfPlan = popops::embedding::plan(g, HALF, 6, 4, {3}, {});
  expectThrowsWith<poplibs_error>([&] { popops::multiSlice(g, t, idx, {0}, {1}, p, halfPlan, {}); },
                                  {"popops::multiSlice", "plan", "half", "float"});
  expectThrowsWith<invalid_option>(
      [&] {
        popops::multiSlice(g, t, idx, {0}, {1}, p, plan, {{"operationForUpdate", "mul"}});
      },
      {"popops::multiSlice", "operationForUpdate", "mul"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::multiSlice(g, t, {0u, 1u}, 2, p);
      },
      {"popops::multiSlice", "dimension 2"});
}

} // namespace
