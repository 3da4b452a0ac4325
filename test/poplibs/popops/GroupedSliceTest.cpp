// The grouped multi-slices and multi-updates (groupedMultiSlice, groupedMultiUpdate, ...Add,
// ...Max, ...Mul) and the grouped creators: each group against the ungrouped host reference
// (test/reference/Slice.hpp) with its own indices; and their errors.
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

/// Group g's part of row-major values of `groups` equal groups.
std::vector<double> part(const std::vector<double> &v, std::size_t groups, std::size_t g) {
  std::size_t n = groups ? v.size() / groups : 0;
  return std::vector<double>(v.begin() + g * n, v.begin() + (g + 1) * n);
}

struct GroupCase {
  Type type;
  std::size_t groups;
  std::vector<std::size_t> shape; // of one group
  std::size_t dim;
  std::vector<std::vector<std::int64_t>> indices; // per group, all of one length
  bool created = false;                           // tensors from the grouped creators
  unsigned tiles = 4;
};

std::vector<std::int64_t> flatIndices(const GroupCase &c) {
  std::vector<std::int64_t> all;
  for (const auto &i : c.indices)
    all.insert(all.end(), i.begin(), i.end());
  return all;
}

std::vector<std::size_t> sliceShape(const GroupCase &c) {
  std::vector<std::size_t> s{c.groups, c.indices.empty() ? 0 : c.indices[0].size()};
  for (std::size_t d = 0; d < c.shape.size(); ++d)
    s.push_back(d == c.dim ? 1 : c.shape[d]);
  return s;
}

void checkGroupedSlice(const GroupCase &c) {
  OpHarness h(c.tiles);
  auto &g = h.graph();
  std::vector<std::size_t> full{c.groups};
  full.insert(full.end(), c.shape.begin(), c.shape.end());
  auto values = testValues(c.type, elementCount(full), -9, 9);
  const std::size_t n = c.indices.empty() ? 0 : c.indices[0].size();
  auto plan = popops::embedding::plan(g, c.type == BOOL ? FLOAT : c.type, c.groups, c.shape[c.dim],
                                      1, {n}, {});
  if (c.type == BOOL)
    plan = popops::SlicePlan();
  Tensor t, idx;
  if (c.created) {
    t = popops::createGroupedSliceableTensor(g, c.type, c.groups, c.shape, {c.dim}, {1}, plan, {});
    idx = popops::createGroupedIndicesTensor(g, c.groups, {c.dim}, n, plan, {});
    h.write("t", t, values);
    h.write("idx", idx, asDoubles(flatIndices(c)));
  } else {
    t = h.input("t", c.type, full, values);
    idx = h.input("idx", UNSIGNED_INT, {c.groups, n, 1}, asDoubles(flatIndices(c)));
  }
  Tensor out = popops::groupedMultiSlice(g, t, idx, {c.dim}, {1}, h.prog(), plan, {});
  ASSERT_EQ(out.shape(), sliceShape(c));
  if (out.numElements() == 0)
    return;
  h.output("out", out);
  h.run();
  std::vector<double> expected;
  for (std::size_t k = 0; k < c.groups; ++k) {
    auto e = ref::multiSlice(part(values, c.groups, k), c.shape, c.indices[k], c.dim);
    expected.insert(expected.end(), e.begin(), e.end());
  }
  EXPECT_EQ(h.result("out"), expected);
}

TEST(PopopsGroupedMultiSlice, TypesGroupsAndCreators) {
  for (Type type : {FLOAT, HALF, INT, UNSIGNED_INT, BOOL}) {
    SCOPED_TRACE(type.toString());
    checkGroupedSlice({type, 3, {10, 4}, 0, {{9, 0, 4}, {1, 1, 10}, {5, 3, 2}}});
  }
  checkGroupedSlice({FLOAT, 2, {6, 5}, 1, {{4, 0}, {2, 2}}, true});
  checkGroupedSlice({HALF, 1, {7, 3}, 0, {{6, 6, 0, 1, 2}}, true});
  checkGroupedSlice({FLOAT, 2, {3, 5, 2}, 1, {{4}, {0}}});
  checkGroupedSlice({FLOAT, 2, {50, 40}, 0, {{49, 3, 17, 17}, {0, 1, 2, 48}}, true, 8});
  checkGroupedSlice({FLOAT, 2, {6, 4}, 0, {{}, {}}});
}

TEST(PopopsGroupedMultiSlice, IntOffsets) {
  // INT offsets are converted on the device; a negative one selects nothing (zeros).
  OpHarness h(4);
  auto values = hostData(FLOAT, 2 * 6 * 3, -9, 9);
  Tensor t = h.input("t", FLOAT, {2, 6, 3}, values);
  Tensor idx = h.input("idx", INT, {2, 3, 1}, {5, -1, 0, 2, 2, 7});
  Tensor out =
      popops::groupedMultiSlice(h.graph(), t, idx, {0}, {1}, h.prog(), popops::SlicePlan(), {});
  h.output("out", out);
  h.run();
  std::vector<double> expected;
  const std::vector<std::vector<std::int64_t>> indices{{5, -1, 0}, {2, 2, 7}};
  for (std::size_t k = 0; k < 2; ++k) {
    auto e = ref::multiSlice(part(values, 2, k), {6, 3}, indices[k], 0);
    expected.insert(expected.end(), e.begin(), e.end());
  }
  EXPECT_EQ(h.result("out"), expected);
}

TEST(PopopsGroupedMultiSlice, CreatorsShapesAndLayout) {
  OpHarness h(4);
  auto &g = h.graph();
  auto plan = popops::embedding::plan(g, FLOAT, 3, 20, 8, {5}, {});
  Tensor t = popops::createGroupedSliceableTensor(g, FLOAT, 3, {20, 8}, {0}, {1}, plan, {});
  Tensor s = popops::createGroupedSliceTensor(g, FLOAT, 3, {20, 8}, {0}, {1}, 5, plan, {});
  Tensor i = popops::createGroupedIndicesTensor(g, 3, {0}, 5, plan, {});
  EXPECT_EQ(t.shape(), (std::vector<std::size_t>{3, 20, 8}));
  EXPECT_EQ(s.shape(), (std::vector<std::size_t>{3, 5, 1, 8}));
  EXPECT_EQ(i.shape(), (std::vector<std::size_t>{3, 5, 1}));
  EXPECT_EQ(i.elementType(), UNSIGNED_INT);
  // Each group's slices lie where that group's columns are.
  for (std::size_t k = 0; k < 3; ++k)
    EXPECT_EQ(g.getTileMapping(s[k][0][0]), g.getTileMapping(t[k][0])) << "group " << k;
}

void checkGroupedUpdate(ref::UpdateOp op, const GroupCase &c, Type scaleType = FLOAT,
                        double scale = 1) {
  OpHarness h(c.tiles);
  auto &g = h.graph();
  std::vector<std::size_t> full{c.groups};
  full.insert(full.end(), c.shape.begin(), c.shape.end());
  auto values = testValues(c.type, elementCount(full), -9, 9, 1);
  auto sShape = sliceShape(c);
  auto update = testValues(c.type, elementCount(sShape), -9, 9, 2);
  Tensor t = h.input("t", c.type, full, values);
  Tensor s = h.input("s", c.type, sShape, update);
  Tensor idx = h.input("idx", UNSIGNED_INT, {c.groups, sShape[1], 1}, asDoubles(flatIndices(c)));
  popops::SlicePlan plan;
  switch (op) {
  case ref::UpdateOp::Copy:
    popops::groupedMultiUpdate(g, t, s, idx, {c.dim}, {1}, h.prog(), plan, {});
    break;
  case ref::UpdateOp::Add: {
    Tensor sc = h.input("scale", scaleType, {}, {scale});
    popops::groupedMultiUpdateAdd(g, t, s, idx, sc, {c.dim}, {1}, h.prog(), plan, {});
    break;
  }
  case ref::UpdateOp::Max:
    popops::groupedMultiUpdateMax(g, t, s, idx, {c.dim}, {1}, h.prog(), plan, {});
    break;
  case ref::UpdateOp::Mul:
    popops::groupedMultiUpdateMul(g, t, s, idx, {c.dim}, {1}, h.prog(), plan, {});
    break;
  }
  h.output("t", t);
  h.run();
  std::vector<double> expected;
  for (std::size_t k = 0; k < c.groups; ++k) {
    auto e = ref::multiUpdate(part(values, c.groups, k), c.shape, part(update, c.groups, k),
                              c.indices[k], c.dim, op, scale, c.type);
    expected.insert(expected.end(), e.begin(), e.end());
  }
  EXPECT_EQ(h.result("t"), expected);
}

TEST(PopopsGroupedMultiUpdate, EveryOpAndType) {
  const GroupCase base{FLOAT, 3, {8, 5}, 0, {{7, 0, 7}, {2, 8, 2}, {1, 1, 1}}};
  for (auto op :
       {ref::UpdateOp::Copy, ref::UpdateOp::Add, ref::UpdateOp::Max, ref::UpdateOp::Mul}) {
    SCOPED_TRACE(int(op));
    for (Type type : {FLOAT, HALF, INT, UNSIGNED_INT}) {
      SCOPED_TRACE(type.toString());
      GroupCase c = base;
      c.type = type;
      checkGroupedUpdate(op, c, type, 2);
    }
  }
  checkGroupedUpdate(ref::UpdateOp::Copy, {BOOL, 2, {4, 3}, 1, {{2, 0}, {1, 1}}});
  checkGroupedUpdate(ref::UpdateOp::Add, {HALF, 2, {5, 7}, 1, {{6, 0}, {3, 3}}}, FLOAT, 0.5);
  checkGroupedUpdate(ref::UpdateOp::Mul, {FLOAT, 2, {40, 30}, 0, {{39, 5}, {0, 39}}, false, 8});
}

TEST(PopopsGroupedMultiSlice, Errors) {
  OpHarness h(2);
  auto &g = h.graph();
  auto &p = h.prog();
  Tensor t = h.input("t", FLOAT, {2, 6, 4}, hostData(FLOAT, 48, 0, 1));
  Tensor idx = h.input("idx", UNSIGNED_INT, {2, 3, 1}, {0, 1, 2, 3, 4, 5});
  Tensor idx3 = h.input("idx3", UNSIGNED_INT, {3, 3, 1}, {0, 1, 2, 3, 4, 5, 0, 0, 0});
  Tensor idx2d = h.input("idx2d", UNSIGNED_INT, {2, 3}, {0, 1, 2, 3, 4, 5});
  Tensor s = h.input("s", FLOAT, {2, 3, 1, 4}, hostData(FLOAT, 24, 0, 1));
  Tensor sGroups = h.input("sGroups", FLOAT, {1, 3, 1, 4}, hostData(FLOAT, 12, 0, 1));
  Tensor t1 = h.input("t1", FLOAT, {6}, hostData(FLOAT, 6, 0, 1));
  auto plan3 = popops::embedding::plan(g, FLOAT, 3, 6, 4, {3}, {});
  popops::SlicePlan none;
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>(
      [&] { popops::groupedMultiSlice(g, t, idx3, {0}, {1}, p, none, {}); },
      {"popops::groupedMultiSlice", "{3,3,1}", "groupSize 2"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::groupedMultiSlice(g, t, idx2d, {0}, {1}, p, none, {}); },
      {"popops::groupedMultiSlice", "{2,3}", "[groupSize, numIndices, 1]"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::groupedMultiSlice(g, t1, idx, {0}, {1}, p, none, {}); },
      {"popops::groupedMultiSlice", "{6}", "group dimension"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::groupedMultiSlice(g, t, idx, {2}, {1}, p, none, {}); },
      {"popops::groupedMultiSlice", "dimension 2", "{6,4}"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::groupedMultiSlice(g, t, idx, {0}, {1}, p, plan3, {}); },
      {"popops::groupedMultiSlice", "group size of 3", "2 groups"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::groupedMultiUpdate(g, t, sGroups, idx, {0}, {1}, p, none, {}); },
      {"popops::groupedMultiUpdate", "{1,3,1,4}", "group size 2"});
  expectThrowsWith<poplar::invalid_option>(
      [&] {
        popops::groupedMultiUpdateMul(g, t, s, idx, {0}, {1}, p, none, {{"bad", "1"}});
      },
      {"popops::groupedMultiUpdateMul", "bad"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::createGroupedIndicesTensor(g, 2, {0}, 3, plan3, {}); },
      {"popops::createGroupedIndicesTensor", "group size of 3", "groupSize is 2"});
  expectThrowsWith<poplibs_error>([&] { popops::embedding::plan(g, FLOAT, 0, 6, 4, {3}, {}); },
                                  {"popops::embedding::plan", "groupSize"});
}

} // namespace
