// popops::sort*, topK* against the host reference (test/reference/Sort.hpp): every sortable type,
// any dimension, rows spread over tiles and blocks, ties kept in order; and their errors.
#include "Sort.hpp"
#include "OpHarness.hpp"
#include "SliceTestUtil.hpp"

#include <popops/Sort.hpp>
#include <popops/TopK.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

#include <sstream>

namespace {

using namespace poplar;
using namespace popsdk::test;
namespace ref = popsdk::reference;

void checkSort(Type type, const std::vector<std::size_t> &shape, unsigned dim, bool inPlace,
               unsigned tiles = 4) {
  OpHarness h(tiles);
  auto values = testValues(type, elementCount(shape), -50, 50);
  Tensor t = h.input("t", type, shape, values);
  Tensor out = t;
  if (inPlace)
    popops::sortInPlace(h.graph(), t, dim, h.prog(), "sort");
  else
    out = popops::sort(h.graph(), t, dim, h.prog(), "sort");
  ASSERT_EQ(out.shape(), shape);
  if (out.numElements() == 0)
    return;
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.result("out"), ref::permute(values, ref::sortPermutation(values, shape, dim)));
}

TEST(PopopsSort, EveryTypeAcrossTiles) {
  for (Type type : {FLOAT, HALF, INT, UNSIGNED_INT}) {
    SCOPED_TRACE(type.toString());
    checkSort(type, {2, 37}, 1, false);
    checkSort(type, {2, 37}, 1, true);
  }
}

TEST(PopopsSort, AnyDimensionAndEdgeShapes) {
  checkSort(FLOAT, {13, 3}, 0, false);
  checkSort(HALF, {3, 9, 4}, 1, true);
  checkSort(INT, {1}, 0, false);
  checkSort(FLOAT, {5, 1}, 1, false);
  checkSort(FLOAT, {0, 4}, 1, false);
  checkSort(UNSIGNED_INT, {2, 2}, 0, true, 1);
}

TEST(PopopsSort, LongRowsOverManyBlocks) {
  // Blocks of about a worker's share (at least 32): 600 keys on 4 tiles are 19 blocks of 32,
  // 1000 on 2 tiles 12 of 84, 3000 on 1 tile 6 of 500 (each sorted in several merge passes).
  checkSort(FLOAT, {600}, 0, false);
  checkSort(INT, {1000}, 0, true, 2);
  checkSort(HALF, {3000}, 0, false, 1);
  // Keys in reverse order need every round.
  OpHarness h(4);
  std::vector<double> values(300);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = double(values.size() - i);
  Tensor t = h.input("t", FLOAT, {300}, values);
  Tensor out = popops::sort(h.graph(), t, 0, h.prog());
  h.output("out", out);
  h.run();
  std::vector<double> sorted(values.rbegin(), values.rend());
  EXPECT_EQ(h.result("out"), sorted);
}

void checkSortKeyValue(Type keyType, Type valueType, const std::vector<std::size_t> &shape,
                       unsigned dim, bool inPlace) {
  OpHarness h(4);
  // Few distinct keys: many ties, which must keep their order.
  auto keys = testValues(keyType, elementCount(shape), -3, 3, 1);
  auto values = testValues(valueType, elementCount(shape), -100, 100, 2);
  Tensor k = h.input("k", keyType, shape, keys);
  Tensor v = h.input("v", valueType, shape, values);
  Tensor out = v;
  if (inPlace)
    popops::sortKeyValueInPlace(h.graph(), k, v, dim, h.prog());
  else
    out = popops::sortKeyValue(h.graph(), k, v, dim, h.prog());
  h.output("out", out);
  h.output("k", k);
  h.run();
  auto perm = ref::sortPermutation(keys, shape, dim);
  EXPECT_EQ(h.result("out"), ref::permute(values, perm));
  EXPECT_EQ(h.result("k"), inPlace ? ref::permute(keys, perm) : keys);
}

TEST(PopopsSortKeyValue, TypesTiesAndInPlace) {
  checkSortKeyValue(FLOAT, INT, {3, 50}, 1, false);
  checkSortKeyValue(HALF, FLOAT, {40, 3}, 0, true);
  checkSortKeyValue(INT, HALF, {301}, 0, false);
  checkSortKeyValue(UNSIGNED_INT, UNSIGNED_INT, {2, 3, 20}, 2, true);
}

// ---- topK -----------------------------------------------------------------------------------

void checkTopK(Type type, std::size_t rows, std::size_t n, unsigned k, bool largest,
               popops::SortOrder order) {
  OpHarness h(4);
  // Distinct keys, so that which of equal keys is chosen does not matter.
  std::vector<double> keys(rows * n);
  for (std::size_t i = 0; i < keys.size(); ++i)
    keys[i] = double((i * 37) % keys.size());
  if (type == HALF || type == FLOAT || type == INT)
    for (auto &x : keys)
      x -= double(keys.size() / 2);
  Tensor t = h.input("t", type, {rows, n}, keys);
  popops::TopKParams params(k, largest, order);
  auto [values, indices] = popops::topKWithPermutation(h.graph(), h.prog(), t, params);
  Tensor plain = popops::topK(h.graph(), h.prog(), t, params);
  ASSERT_EQ(values.shape(), (std::vector<std::size_t>{rows, k}));
  EXPECT_EQ(indices.elementType(), UNSIGNED_INT);
  h.output("values", values);
  h.output("indices", indices);
  h.output("plain", plain);
  h.run();
  bool ascending =
      order == popops::SortOrder::ASCENDING || (order == popops::SortOrder::NONE && !largest);
  auto expected = ref::topK(keys, rows, n, k, largest, ascending);
  EXPECT_EQ(h.result("values"), expected.first);
  EXPECT_EQ(h.result("indices"), expected.second);
  EXPECT_EQ(h.result("plain"), expected.first);
}

TEST(PopopsTopK, LargestSmallestAndOrders) {
  using popops::SortOrder;
  for (SortOrder order : {SortOrder::NONE, SortOrder::ASCENDING, SortOrder::DESCENDING}) {
    std::ostringstream os;
    os << order;
    SCOPED_TRACE(os.str());
    checkTopK(FLOAT, 3, 40, 5, true, order);
    checkTopK(HALF, 2, 17, 4, false, order);
  }
  checkTopK(INT, 4, 9, 9, true, SortOrder::DESCENDING);
  checkTopK(UNSIGNED_INT, 1, 300, 1, false, SortOrder::ASCENDING);
}

TEST(PopopsTopK, KeyValueKeepsTiesStable) {
  OpHarness h(3);
  std::vector<double> keys{3, 1, 3, 2, 3, 1, 0, 2}, values{0, 1, 2, 3, 4, 5, 6, 7};
  Tensor k = h.input("k", FLOAT, {2, 4}, keys);
  Tensor v = h.input("v", INT, {2, 4}, values);
  popops::TopKParams params(3, true, popops::SortOrder::DESCENDING, true);
  auto [topKeys, topValues] = popops::topKKeyValue(h.graph(), h.prog(), k, v, params);
  h.output("k", topKeys);
  h.output("v", topValues);
  h.run();
  // Row 0 keys 3 1 3 2: the 3s in their order, then the 2; row 1 keys 3 1 0 2.
  EXPECT_EQ(h.result("k"), (std::vector<double>{3, 3, 2, 3, 2, 1}));
  EXPECT_EQ(h.result("v"), (std::vector<double>{0, 2, 3, 4, 7, 5}));
}

TEST(PopopsTopK, CreateInputIsMapped) {
  OpHarness h(4);
  popops::TopKParams params(2, true, popops::SortOrder::NONE);
  Tensor t = popops::createTopKInput(h.graph(), FLOAT, {3, 50}, params, "in");
  bool complete = false;
  h.graph().getTileMapping(t, &complete);
  EXPECT_TRUE(complete);
  std::ostringstream os;
  os << params;
  EXPECT_EQ(os.str(), "{k=2, largest=true, sortOrder=none, stableSort=false}");
}

TEST(PopopsSort, Errors) {
  OpHarness h(2);
  auto &g = h.graph();
  auto &p = h.prog();
  Tensor t = h.input("t", FLOAT, {3, 4}, hostData(FLOAT, 12, 0, 1));
  Tensor v = h.input("v", INT, {4, 3}, hostData(INT, 12, 0, 9));
  Tensor b = h.input("b", BOOL, {3, 4}, hostData(BOOL, 12, 0, 1));
  Tensor scalar = h.input("scalar", FLOAT, {}, {1});
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>([&] { popops::sort(g, t, 2, p); },
                                  {"popops::sort", "dimension 2", "{3,4}"});
  expectThrowsWith<poplibs_error>([&] { popops::sortInPlace(g, b, 0, p); },
                                  {"popops::sortInPlace", "bool"});
  expectThrowsWith<poplibs_error>([&] { popops::sortKeyValue(g, t, v, 0, p); },
                                  {"popops::sortKeyValue", "{3,4}", "{4,3}"});
  popops::TopKParams tooMany(5, true, popops::SortOrder::NONE);
  expectThrowsWith<poplibs_error>([&] { popops::topK(g, p, t, tooMany); },
                                  {"popops::topK", "k (5)", "(4)"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::topK(g, p, scalar, popops::TopKParams(1, true, popops::SortOrder::NONE)); },
      {"popops::topK", "scalar"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::topKKeyValue(g, p, t, v, popops::TopKParams(1, true, popops::SortOrder::NONE));
      },
      {"popops::topKKeyValue", "{3,4}", "{4,3}"});
}

} // namespace
