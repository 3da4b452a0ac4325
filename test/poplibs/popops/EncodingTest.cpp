// popops::encodeOneHot, iota and allTrue against the host reference (test/reference/Encoding.hpp),
// over several tiles, index and output types, masked and out-of-range indices; and their errors.
#include "Encoding.hpp"
#include "OpHarness.hpp"
#include "SliceTestUtil.hpp"

#include <popops/AllTrue.hpp>
#include <popops/Encoding.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

namespace {

using namespace poplar;
using namespace popsdk::test;
namespace ref = popsdk::reference;

void checkOneHot(Type indexType, Type outType, std::size_t classes,
                 const std::vector<std::int64_t> &indices, unsigned tiles = 4) {
  OpHarness h(tiles);
  Tensor idx = h.input("idx", indexType, {indices.size()}, asDoubles(indices));
  Tensor encoded = h.graph().addVariable(outType, {indices.size(), classes}, "encoded");
  poputil::mapTensorLinearly(h.graph(), encoded);
  popops::encodeOneHot(h.graph(), idx, encoded, h.prog(), "oneHot");
  h.output("encoded", encoded);
  h.run();
  EXPECT_EQ(h.result("encoded"), ref::encodeOneHot(indices, classes));
}

TEST(PopopsEncodeOneHot, EveryIndexAndOutputType) {
  for (Type indexType : {UNSIGNED_INT, INT})
    for (Type outType : {FLOAT, HALF, INT, UNSIGNED_INT}) {
      SCOPED_TRACE(indexType.toString() + " -> " + outType.toString());
      checkOneHot(indexType, outType, 5, {4, 0, 2, 2, 1, 3, 0});
    }
}

TEST(PopopsEncodeOneHot, RowsAcrossTilesAndIgnoredIndices) {
  // 30 rows of 13 classes on 4 tiles: rows split between tiles and workers.
  std::vector<std::int64_t> indices;
  for (int i = 0; i < 30; ++i)
    indices.push_back((i * 5) % 13);
  indices[3] = MASKED_LABEL_CODE;
  indices[7] = 13; // one past the last class
  checkOneHot(UNSIGNED_INT, FLOAT, 13, indices);
  checkOneHot(INT, HALF, 3, {-1, 2, -7, 0});
  checkOneHot(UNSIGNED_INT, INT, 1, {0, 1, 0});
  checkOneHot(UNSIGNED_INT, FLOAT, 7, {});
}

TEST(PopopsEncodeOneHot, OnAndOffValues) {
  OpHarness h(2);
  std::vector<std::int64_t> indices{2, 0, 5, 1};
  Tensor idx = h.input("idx", UNSIGNED_INT, {4}, asDoubles(indices));
  Tensor on = h.input("on", HALF, {1}, {0.75});
  Tensor off = h.input("off", HALF, {1}, {-0.25});
  Tensor encoded = h.graph().addVariable(HALF, {4, 3}, "encoded");
  poputil::mapTensorLinearly(h.graph(), encoded);
  popops::encodeOneHot(h.graph(), idx, encoded, h.prog(), on, off);
  h.output("encoded", encoded);
  h.run();
  EXPECT_EQ(h.result("encoded"), ref::encodeOneHot(indices, 3, 0.75, -0.25));
}

TEST(PopopsIota, UnsignedAndIntAcrossTiles) {
  for (std::size_t n : {1u, 7u, 37u, 100u}) {
    SCOPED_TRACE(n);
    OpHarness h(4);
    Tensor u = h.graph().addVariable(UNSIGNED_INT, {n}, "u");
    Tensor i = h.graph().addVariable(INT, {n}, "i");
    poputil::mapTensorLinearly(h.graph(), u);
    poputil::mapTensorLinearly(h.graph(), i);
    popops::iota(h.graph(), u, 5u, h.prog());
    popops::iota(h.graph(), i, -10, h.prog());
    h.output("u", u);
    h.output("i", i);
    h.run();
    EXPECT_EQ(h.result("u"), ref::iota(5, n));
    EXPECT_EQ(h.result("i"), ref::iota(-10, n));
  }
}

TEST(PopopsAllTrue, AcrossTiles) {
  for (unsigned tiles : {1u, 4u}) {
    for (std::size_t falseAt :
         {std::size_t(0), std::size_t(57), std::size_t(99), std::size_t(100)}) {
      SCOPED_TRACE(std::to_string(tiles) + " tiles, false at " + std::to_string(falseAt));
      OpHarness h(tiles);
      std::vector<double> values(100, 1);
      if (falseAt < values.size())
        values[falseAt] = 0;
      Tensor a = h.input("a", BOOL, {10, 10}, values);
      Tensor all = popops::allTrue(h.graph(), a, h.prog());
      EXPECT_EQ(all.rank(), 0u);
      h.output("all", all);
      h.run();
      EXPECT_EQ(h.result("all"), std::vector<double>{falseAt == 100 ? 1.0 : 0.0});
    }
  }
}

TEST(PopopsAllTrue, EmptyIsTrue) {
  OpHarness h(2);
  Tensor a = h.graph().addVariable(BOOL, {0, 3}, "a");
  Tensor all = popops::allTrue(h.graph(), a, h.prog());
  h.output("all", all);
  h.run();
  EXPECT_EQ(h.result("all"), std::vector<double>{1.0});
}

TEST(PopopsEncoding, Errors) {
  OpHarness h(2);
  auto &g = h.graph();
  auto &p = h.prog();
  Tensor idx = h.input("idx", UNSIGNED_INT, {4}, {0, 1, 2, 3});
  Tensor idx2d = h.input("idx2d", UNSIGNED_INT, {2, 2}, {0, 1, 2, 3});
  Tensor idxFloat = h.input("idxFloat", FLOAT, {4}, {0, 1, 2, 3});
  Tensor enc = h.input("enc", FLOAT, {4, 5}, hostData(FLOAT, 20, 0, 1));
  Tensor enc1d = h.input("enc1d", FLOAT, {20}, hostData(FLOAT, 20, 0, 1));
  Tensor encRows = h.input("encRows", FLOAT, {3, 5}, hostData(FLOAT, 15, 0, 1));
  Tensor encBool = h.input("encBool", BOOL, {4, 5}, hostData(BOOL, 20, 0, 1));
  Tensor onHalf = h.input("onHalf", HALF, {1}, {1});
  Tensor u2d = h.input("u2d", UNSIGNED_INT, {2, 2}, {0, 0, 0, 0});
  Tensor f = h.input("f", FLOAT, {3}, {0, 0, 0});
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>([&] { popops::encodeOneHot(g, idx2d, enc, p); },
                                  {"popops::encodeOneHot", "indices", "{2,2}", "1-D"});
  expectThrowsWith<poplibs_error>([&] { popops::encodeOneHot(g, idxFloat, enc, p); },
                                  {"popops::encodeOneHot", "indices", "float"});
  expectThrowsWith<poplibs_error>([&] { popops::encodeOneHot(g, idx, enc1d, p); },
                                  {"popops::encodeOneHot", "encoded", "{20}", "[4, classes]"});
  expectThrowsWith<poplibs_error>([&] { popops::encodeOneHot(g, idx, encRows, p); },
                                  {"popops::encodeOneHot", "{3,5}", "{4}"});
  expectThrowsWith<poplibs_error>([&] { popops::encodeOneHot(g, idx, encBool, p); },
                                  {"popops::encodeOneHot", "bool"});
  expectThrowsWith<poplibs_error>([&] { popops::encodeOneHot(g, idx, enc, p, onHalf, onHalf); },
                                  {"popops::encodeOneHot", "on", "half", "float"});
  expectThrowsWith<poplibs_error>([&] { popops::iota(g, idx, -1, p); },
                                  {"popops::iota", "unsigned int", "int"});
  expectThrowsWith<poplibs_error>([&] { popops::iota(g, u2d, 0u, p); },
                                  {"popops::iota", "{2,2}", "1-D"});
  expectThrowsWith<poplibs_error>([&] { popops::allTrue(g, f, p); },
                                  {"popops::allTrue", "float", "bool"});
}

} // namespace
