// popops::sequenceSlice against the host reference (test/reference/SequenceSlice.cpp): runs of
// rows at run-time offsets, zeroing of unused rows, runs clipped at either tensor's end, every
// type, rows wider than a tile's share; and its errors.
#include "OpHarness.hpp"
#include "Slice.hpp"
#include "SliceTestUtil.hpp"

#include <popops/SequenceSlice.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

namespace {

using namespace poplar;
using namespace popsdk::test;
namespace ref = popsdk::reference;

struct SeqCase {
  Type type;
  std::vector<std::size_t> inShape, outShape;
  std::vector<std::uint32_t> n, inOffset, outOffset;
  bool zeroUnused;
  unsigned tiles = 4;
};

std::vector<double> asValues(const std::vector<std::uint32_t> &v) {
  return std::vector<double>(v.begin(), v.end());
}

void checkSeq(const SeqCase &c) {
  OpHarness h(c.tiles);
  auto in = testValues(c.type, elementCount(c.inShape), -9, 9, 1);
  auto out = testValues(c.type, elementCount(c.outShape), -9, 9, 2);
  Tensor tIn = h.input("in", c.type, c.inShape, in);
  Tensor tOut = h.input("out", c.type, c.outShape, out);
  const std::size_t k = c.n.size();
  Tensor tN = h.input("n", UNSIGNED_INT, {k}, asValues(c.n));
  Tensor tInOff = h.input("inOffset", UNSIGNED_INT, {k}, asValues(c.inOffset));
  Tensor tOutOff = h.input("outOffset", UNSIGNED_INT, {k}, asValues(c.outOffset));
  popops::sequenceSlice(h.graph(), tIn, tOut, tN, tInOff, tOutOff, c.zeroUnused, h.prog());
  h.output("out", tOut);
  h.run();
  const std::size_t columns = c.outShape[0] ? elementCount(c.outShape) / c.outShape[0] : 0;
  EXPECT_EQ(h.result("out"),
            ref::sequenceSlice(in, out, columns, c.n, c.inOffset, c.outOffset, c.zeroUnused));
}

TEST(PopopsSequenceSlice, EveryTypeWithAndWithoutZeroing) {
  for (Type type : {FLOAT, HALF, INT, UNSIGNED_INT, BOOL})
    for (bool zero : {false, true}) {
      SCOPED_TRACE(type.toString() + (zero ? " zeroUnused" : ""));
      checkSeq({type, {8, 3}, {10, 3}, {2, 3, 0}, {0, 5, 1}, {1, 6, 0}, zero});
    }
}

TEST(PopopsSequenceSlice, ShapesClippingAndLayouts) {
  checkSeq({FLOAT, {6, 2, 2}, {5, 4}, {4, 2}, {3, 0}, {0, 3}, true}); // runs clipped at the ends
  checkSeq({HALF, {5, 7}, {5, 7}, {5}, {0}, {0}, false});             // odd rows, whole copy
  checkSeq({FLOAT, {4, 1}, {4, 1}, {1, 1}, {3, 0}, {0, 9}, true});    // an entry beyond tOut
  checkSeq({FLOAT, {20, 64}, {30, 64}, {7, 9}, {13, 0}, {20, 2}, true, 8});
  checkSeq({INT, {3, 5}, {4, 5}, {}, {}, {}, true}); // no entries: all zeros
  checkSeq({INT, {3, 5}, {4, 5}, {}, {}, {}, false});
  checkSeq({FLOAT, {0, 5}, {2, 5}, {1}, {0}, {0}, true});
}

TEST(PopopsSequenceSlice, Errors) {
  OpHarness h(1);
  auto &g = h.graph();
  auto &p = h.prog();
  Tensor in = h.input("in", FLOAT, {4, 3}, hostData(FLOAT, 12, 0, 1));
  Tensor out = h.input("out", FLOAT, {5, 3}, hostData(FLOAT, 15, 0, 1));
  Tensor outHalf = h.input("outHalf", HALF, {5, 3}, hostData(HALF, 15, 0, 1));
  Tensor outWide = h.input("outWide", FLOAT, {5, 4}, hostData(FLOAT, 20, 0, 1));
  Tensor flat = h.input("flat", FLOAT, {12}, hostData(FLOAT, 12, 0, 1));
  Tensor n = h.input("n", UNSIGNED_INT, {2}, {1, 1});
  Tensor n3 = h.input("n3", UNSIGNED_INT, {3}, {1, 1, 1});
  Tensor nInt = h.input("nInt", INT, {2}, {1, 1});
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>([&] { popops::sequenceSlice(g, flat, out, n, n, n, true, p); },
                                  {"popops::sequenceSlice", "{12}", "rank 2"});
  expectThrowsWith<poplibs_error>([&] { popops::sequenceSlice(g, in, outHalf, n, n, n, true, p); },
                                  {"popops::sequenceSlice", "float", "half"});
  expectThrowsWith<poplibs_error>([&] { popops::sequenceSlice(g, in, outWide, n, n, n, true, p); },
                                  {"popops::sequenceSlice", "{4,3}", "3 elements", "{5,4}", "4"});
  expectThrowsWith<poplibs_error>([&] { popops::sequenceSlice(g, in, out, n, n3, n, true, p); },
                                  {"popops::sequenceSlice", "tInOffset", "{3}"});
  expectThrowsWith<poplibs_error>([&] { popops::sequenceSlice(g, in, out, n, n, nInt, true, p); },
                                  {"popops::sequenceSlice", "tOutOffset", "int", "unsigned"});
}

} // namespace
