// popops::createHostSliceableTensor / createHostTransferableTensor: shapes, every row spread over
// the tiles in whole words, values through a host round trip; and the shape error.
#include "OpHarness.hpp"
#include "SliceTestUtil.hpp"

#include <popops/HostSliceTensor.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

namespace {

using namespace poplar;
using namespace popsdk::test;

/// The elements each tile holds of `t`.
std::vector<std::size_t> perTile(const Graph &g, const Tensor &t) {
  std::vector<std::size_t> n;
  for (const auto &intervals : g.getTileMapping(t)) {
    std::size_t k = 0;
    for (const auto &i : intervals)
      k += i.size();
    n.push_back(k);
  }
  return n;
}

TEST(PopopsHostSliceTensor, RowsSpreadInWholeWords) {
  OpHarness h(4);
  auto &g = h.graph();
  auto [indices, t] = popops::createHostSliceableTensor(g, HALF, {3, 40}, false, "host");
  EXPECT_EQ(t.shape(), (std::vector<std::size_t>{3, 40}));
  EXPECT_EQ(indices.shape(), std::vector<std::size_t>{3});
  EXPECT_EQ(indices.elementType(), UNSIGNED_INT);
  for (std::size_t r = 0; r < 3; ++r)
    EXPECT_EQ(perTile(g, t[r]), (std::vector<std::size_t>{10, 10, 10, 10})) << "row " << r;
  Tensor u = popops::createHostTransferableTensor(g, FLOAT, {5, 7}, true, "transferable");
  auto n = perTile(g, u);
  EXPECT_EQ(n.size(), 4u);
  for (auto k : n)
    EXPECT_GT(k, 0u);
  // Both hold what the host writes.
  auto values = hostData(HALF, 120, -3, 3);
  auto more = hostData(FLOAT, 35, -3, 3);
  h.write("t", t, values);
  h.write("u", u, more);
  h.output("t", t);
  h.output("u", u);
  h.run();
  EXPECT_EQ(h.result("t"), values);
  EXPECT_EQ(h.result("u"), more);
}

TEST(PopopsHostSliceTensor, Errors) {
  OpHarness h(1);
  expectThrowsWith<poputil::poplibs_error>(
      [&] {
        popops::createHostSliceableTensor(h.graph(), FLOAT, {2, 3, 4}, true);
      },
      {"popops::createHostSliceableTensor", "{2,3,4}", "2-D"});
}

} // namespace
