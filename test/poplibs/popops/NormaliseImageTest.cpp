// popops::normaliseImage and createNormaliseImageInput against the host reference
// (test/reference/NormaliseImage.hpp): every input type, images over several tiles, odd pixel
// counts; and their errors.
#include "NormaliseImage.hpp"
#include "OpHarness.hpp"
#include "SliceTestUtil.hpp"

#include <popops/NormaliseImage.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

namespace {

using namespace poplar;
using namespace popsdk::test;
namespace ref = popsdk::reference;

void checkImage(Type inType, const std::vector<std::size_t> &shape, float inScale,
                unsigned tiles = 4) {
  OpHarness h(tiles);
  auto &g = h.graph();
  const Type outType = inType == UNSIGNED_CHAR ? HALF : inType;
  auto pixels = inType == UNSIGNED_CHAR ? hostData(inType, elementCount(shape), 0, 255)
                                        : hostData(inType, elementCount(shape), -4, 4);
  std::vector<double> offsets{0.5, -1.25, 2}, scales{0.25, 3, -1.5};
  Tensor in = popops::createNormaliseImageInput(g, inType, shape, "image");
  h.write("in", in, pixels);
  Tensor off = h.input("offsets", outType, {3}, offsets);
  Tensor sc = h.input("scales", outType, {3}, scales);
  Tensor out = popops::normaliseImage(g, h.prog(), in, inScale, off, sc, "normalise");
  auto outShape = shape;
  outShape.back() = 4;
  ASSERT_EQ(out.shape(), outShape);
  EXPECT_EQ(out.elementType(), outType);
  if (out.numElements() == 0)
    return;
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.result("out"), ref::normaliseImage(pixels, inScale, offsets, scales, outType));
}

TEST(PopopsNormaliseImage, EveryTypeAndShape) {
  for (Type type : {FLOAT, HALF, UNSIGNED_CHAR}) {
    SCOPED_TRACE(type.toString());
    checkImage(type, {2, 5, 3}, 1.0f / 255);
    checkImage(type, {1, 3}, 2.0f);
    checkImage(type, {7, 9, 3}, 0.5f, 8); // odd pixel counts over several tiles
    checkImage(type, {0, 3}, 1.0f);
  }
  checkImage(FLOAT, {40, 33, 3}, 0.1f, 4); // more pixels than a worker's share on each tile
}

TEST(PopopsNormaliseImage, Errors) {
  OpHarness h(2);
  auto &g = h.graph();
  auto &p = h.prog();
  Tensor in = popops::createNormaliseImageInput(g, FLOAT, {4, 3}, "in");
  Tensor off = h.input("off", FLOAT, {3}, {0, 0, 0});
  Tensor offHalf = h.input("offHalf", HALF, {3}, {0, 0, 0});
  Tensor off4 = h.input("off4", FLOAT, {4}, {0, 0, 0, 0});
  // Split pixels: element 0 alone on tile 0.
  Tensor split = g.addVariable(FLOAT, {2, 3}, "split");
  g.setTileMapping(split.flatten().slice(0, 1), 0);
  g.setTileMapping(split.flatten().slice(1, 6), 1);
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::createNormaliseImageInput(g, INT, {4, 3});
      },
      {"popops::createNormaliseImageInput", "int"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::createNormaliseImageInput(g, FLOAT, {4, 4});
      },
      {"popops::createNormaliseImageInput", "{4,4}", "3"});
  expectThrowsWith<poplibs_error>([&] { popops::normaliseImage(g, p, in, 1, offHalf, off); },
                                  {"popops::normaliseImage", "offsets", "half", "float {3}"});
  expectThrowsWith<poplibs_error>([&] { popops::normaliseImage(g, p, in, 1, off, off4); },
                                  {"popops::normaliseImage", "scales", "{4}"});
  expectThrowsWith<poplibs_error>([&] { popops::normaliseImage(g, p, in, 0, off, off); },
                                  {"popops::normaliseImage", "inScale"});
  expectThrowsWith<poplibs_error>([&] { popops::normaliseImage(g, p, split, 1, off, off); },
                                  {"popops::normaliseImage", "tile 0", "[0, 1)", "whole pixels"});
}

} // namespace
