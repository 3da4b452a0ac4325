// popops::pad against the host reference (test/reference/Pad.hpp): constant padding by float,
// int and tensor values with each mapping method, EDGE and REFLECT views, truncation, empty and
// non-contiguous tensors; and its errors.
#include "Pad.hpp"
#include "OpHarness.hpp"
#include "SliceTestUtil.hpp"

#include <popops/Pad.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

namespace {

using namespace poplar;
using namespace popsdk::test;
namespace ref = popsdk::reference;
using popops::padding::MappingMethod;

enum class Value { Float, Int, Tensor, Edge, Reflect };

struct PadCase {
  Type type;
  std::vector<std::size_t> shape;
  std::vector<std::ptrdiff_t> lower, upper;
  Value value = Value::Float;
  MappingMethod mapping = MappingMethod::ZERO;
  bool transposed = false; // pad a transposed view of the input
};

void checkPad(const PadCase &c) {
  OpHarness h(4);
  auto values = testValues(c.type, elementCount(c.shape), -9, 9);
  Tensor t = h.input("t", c.type, c.shape, values);
  auto hostShape = c.shape;
  if (c.transposed) {
    t = t.transpose();
    std::swap(hostShape[0], hostShape[1]);
    std::vector<double> tv(values.size());
    for (std::size_t i = 0; i < c.shape[0]; ++i)
      for (std::size_t j = 0; j < c.shape[1]; ++j)
        tv[j * c.shape[0] + i] = values[i * c.shape[1] + j];
    values = tv;
  }
  const double constant = c.type == UNSIGNED_INT || c.type == BOOL ? 1 : -3;
  Tensor out;
  auto mode = ref::PadMode::Constant;
  switch (c.value) {
  case Value::Float:
    out = popops::pad(h.graph(), t, c.lower, c.upper, float(constant), c.mapping);
    break;
  case Value::Int:
    out = popops::pad(h.graph(), t, c.lower, c.upper, int(constant), c.mapping);
    break;
  case Value::Tensor: {
    Tensor v = h.input("v", c.type, {1}, {constant});
    out = popops::pad(h.graph(), t, c.lower, c.upper, v, c.mapping);
    break;
  }
  case Value::Edge:
    out = popops::pad(t, c.lower, c.upper, popops::padding::Type::EDGE);
    mode = ref::PadMode::Edge;
    break;
  case Value::Reflect:
    out = popops::pad(t, c.lower, c.upper, popops::padding::Type::REFLECT);
    mode = ref::PadMode::Reflect;
    break;
  }
  std::vector<std::size_t> shape;
  auto expected = ref::pad(values, hostShape, c.lower, c.upper, mode, constant, shape);
  ASSERT_EQ(out.shape(), shape);
  if (out.numElements() == 0)
    return;
  // A copy into a fresh tensor reads every padded element on the device.
  Tensor copy = h.graph().clone(out, "copy");
  h.prog().add(program::Copy(out, copy));
  h.output("out", copy);
  h.run();
  EXPECT_EQ(h.result("out"), expected);
}

TEST(PopopsPad, ConstantValuesEveryType) {
  for (Type type : {FLOAT, HALF, INT, UNSIGNED_INT, BOOL}) {
    SCOPED_TRACE(type.toString());
    checkPad({type, {3, 4}, {1, 0}, {2, 3}});
    checkPad({type, {5}, {2}, {0}, Value::Int});
    checkPad({type, {2, 3}, {0, 1}, {1, 1}, Value::Tensor});
  }
}

TEST(PopopsPad, MappingMethodsTruncationAndEdges) {
  checkPad({FLOAT, {4, 6}, {2, -1}, {-3, 2}, Value::Float, MappingMethod::EDGE});
  checkPad({HALF, {1, 1}, {0, 3}, {1, 0}, Value::Float, MappingMethod::EDGE});
  checkPad({INT, {4, 6}, {-4, 0}, {1, 0}, Value::Int}); // all of dimension 0 truncated, then padded
  checkPad({FLOAT, {0, 3}, {1, 1}, {0, 0}});            // an empty tensor padded to one row
  checkPad({FLOAT, {3, 2}, {0, 0}, {0, 0}});
  checkPad({FLOAT, {7, 5}, {1, 2}, {3, 1}, Value::Float, MappingMethod::ZERO, true});
}

TEST(PopopsPad, MappingMethodZeroAndEdgePlaceThePadding) {
  OpHarness h(4);
  auto &g = h.graph();
  Tensor t = h.input("t", FLOAT, {4, 8}, hostData(FLOAT, 32, 0, 1));
  Tensor zero = popops::pad(g, t, {0, 2}, {0, 0}, 1.0f, MappingMethod::ZERO);
  auto zeroMapping = g.getTileMapping(zero.slice(0, 2, 1));
  EXPECT_EQ(zeroMapping[0].size(), 1u); // all on tile 0
  for (unsigned tile = 1; tile < zeroMapping.size(); ++tile)
    EXPECT_TRUE(zeroMapping[tile].empty());
  Tensor edge = popops::pad(g, t, {0, 0}, {0, 2}, 1.0f, MappingMethod::EDGE);
  for (unsigned c = 8; c < 10; ++c)
    EXPECT_EQ(g.getTileMapping(edge.slice(c, c + 1, 1)), g.getTileMapping(t.slice(7, 8, 1)));
  Tensor none = popops::pad(g, t, {1, 0}, {0, 0}, 1.0f, MappingMethod::NONE);
  bool complete = true;
  g.getTileMapping(none, &complete);
  EXPECT_FALSE(complete);
}

TEST(PopopsPad, EdgeAndReflectViews) {
  for (Type type : {FLOAT, HALF, INT}) {
    SCOPED_TRACE(type.toString());
    checkPad({type, {3, 4}, {2, 1}, {1, 3}, Value::Edge});
    checkPad({type, {4, 5}, {3, 2}, {1, 4}, Value::Reflect});
  }
  checkPad({FLOAT, {1, 6}, {3, -1}, {2, -2}, Value::Edge});
  checkPad({FLOAT, {6, 2}, {-1, 1}, {2, 0}, Value::Reflect});
  checkPad({HALF, {5, 4}, {2, 0}, {0, 3}, Value::Reflect, MappingMethod::ZERO, true});
  // One dimension at a time.
  OpHarness h(1);
  Tensor t = h.graph().addVariable(FLOAT, {3, 4});
  EXPECT_EQ(popops::pad(t, 1, 2, 1, popops::padding::Type::EDGE).shape(),
            (std::vector<std::size_t>{3, 7}));
}

TEST(PopopsPad, OneDimensionConstant) {
  OpHarness h(2);
  auto values = hostData(FLOAT, 6, -2, 2);
  Tensor t = h.input("t", FLOAT, {2, 3}, values);
  Tensor out = popops::pad(h.graph(), t, 1, -1, 1, 7.0f);
  Tensor copy = h.graph().clone(out, "copy");
  h.prog().add(program::Copy(out, copy));
  h.output("out", copy);
  h.run();
  std::vector<std::size_t> shape;
  EXPECT_EQ(h.result("out"),
            ref::pad(values, {2, 3}, {0, 1}, {0, -1}, ref::PadMode::Constant, 7, shape));
}

TEST(PopopsPad, Errors) {
  OpHarness h(2);
  auto &g = h.graph();
  Tensor t = h.input("t", FLOAT, {3, 4}, hostData(FLOAT, 12, 0, 1));
  Tensor empty = g.addVariable(FLOAT, {0, 4}, "empty");
  Tensor two = h.input("two", FLOAT, {2}, {1, 2});
  Tensor halfValue = h.input("halfValue", HALF, {1}, {1});
  using popops::padding::Type;
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::pad(g, t, {1}, {1, 1});
      },
      {"popops::pad", "paddingLower (1 entries)", "{3,4}"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::pad(g, t, {-4, 0}, {0, 0});
      },
      {"popops::pad", "[-4, 0]", "dimension 0", "size 3"});
  expectThrowsWith<poplibs_error>([&] { popops::pad(g, t, 1, 1, 2, 0.0f); },
                                  {"popops::pad", "dimension 2", "{3,4}"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::pad(g, t, {1, 0}, {0, 0}, two);
      },
      {"popops::pad", "padding value", "{2}", "one element"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::pad(g, t, {1, 0}, {0, 0}, halfValue);
      },
      {"popops::pad", "padding value", "half", "float"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::pad(g, empty, {0, 1}, {0, 0}, 0.0f, MappingMethod::EDGE);
      },
      {"popops::pad", "EDGE", "{0,4}"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::pad(empty, {1, 0}, {0, 0}, Type::EDGE);
      },
      {"popops::pad", "EDGE padding", "dimension 0", "{0,4}"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::pad(t, {3, 0}, {0, 0}, Type::REFLECT);
      },
      {"popops::pad", "REFLECT padding of 3", "dimension 0", "{3,4}"});
}

} // namespace
