// The element-wise, fill, cast and scaled-add cycle estimators against PopLibs' formulas worked by
// hand (test/codelets/popops sets them beside the simulation), and their errors.
#include "ElementwiseCycles.hpp"
#include "OpHarness.hpp"

#include <popops/ExprOp.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

namespace {

using namespace poplar;
using namespace popops::internal;
using popops::expr::BinaryOpType;
using popops::expr::UnaryOpType;

const Target &target() {
  static const Device device = popsdk::test::testDevice(4);
  return device.getTarget();
}

VertexCost cost(int op, Type type, std::vector<unsigned> regions, Type outType = FLOAT) {
  return {target(), op, type, outType, std::move(regions)};
}

TEST(ElementwiseCycles, BinaryOp1DHalfAddIsPopLibsWorkedExample) {
  // 1200 halves: 200 per worker, 50 vectors of 4 at 1 + 2 cycles: 6 * (26 + 150) + 11.
  EXPECT_EQ(binaryOp1DCycles(cost(int(BinaryOpType::ADD), HALF, {1200})), 1067u);
}

TEST(ElementwiseCycles, UnrolledUnaryAndScalarBinaryLoops) {
  // EXPONENT float: 2 elements per 6-cycle trip; 200 per worker: 6 * (33 + 600) + 9 + 11.
  EXPECT_EQ(unaryOp1DCycles(cost(int(UnaryOpType::EXPONENT), FLOAT, {1200})), 3818u);
  // ABSOLUTE float: one element per trip, 1 + 4 cycles: 20 + 5 * (3 + 4).
  EXPECT_EQ(unaryOp2DCycles(cost(int(UnaryOpType::ABSOLUTE), FLOAT, {3, 4})), 55u);
  // int DIVIDE: 277 per element; 2-D in place: 20 + 277 * 5.
  EXPECT_EQ(binaryOp2DInPlaceCycles(cost(int(BinaryOpType::DIVIDE), INT, {5})), 1405u);
  // float MULTIPLY in place, 2 per vector at 1 + 2: 6 * (58 + 3 * 2) + 11 for 24 elements.
  EXPECT_EQ(binaryOp1DInPlaceCycles(cost(int(BinaryOpType::MULTIPLY), FLOAT, {24})), 395u);
}

TEST(ElementwiseCycles, FillByElementSize) {
  EXPECT_EQ(fillCycles(cost(-1, FLOAT, {7})), 27u); // 16 + 3 + 6 + 1 (odd) + 1
  EXPECT_EQ(fillCycles(cost(-1, HALF, {1})), 15u);
  EXPECT_EQ(fillCycles(cost(-1, HALF, {40})), 36u);  // 26 + 40 / 4
  EXPECT_EQ(fillCycles(cost(-1, BOOL, {100})), 51u); // 39 + 100 / 8
  // Fill2d<float> over 7 and 2: 5 + 1 + (27 - 3) + (24 - 3).
  EXPECT_EQ(fill2dCycles(cost(-1, FLOAT, {7, 2})), 51u);
}

TEST(ElementwiseCycles, CastVectorWidthFromTheTypes) {
  // float -> half: 4 a vector in 2 cycles (two 64-bit loads), 200 per worker, no remainder:
  // 12 + 6 * (19 + 100 + 2 + 18).
  EXPECT_EQ(cast1DCycles(cost(-1, FLOAT, {1200}, HALF)), 846u);
  // int -> float: C++, one element at 2 cycles: 5 + 11 + 19 + 2 * 10.
  EXPECT_EQ(cast2DCycles(cost(-1, INT, {10}, FLOAT)), 55u);
}

TEST(ElementwiseCycles, ScaledAddSelectAndClamp) {
  // half aXPlusbY 2-D, one row of 5: 16 + 15 + 5 + 3 + (4 + 7) for the odd remainder.
  EXPECT_EQ(scaledAdd2DCycles(cost(-1, HALF, {5})), 50u);
  // int: supervisor C++, 3 a trip: 53 + 26 + 6 + 26 * 1 + 8 + 6 for 4 elements.
  EXPECT_EQ(scaledAdd1DCycles(cost(-1, INT, {4})), 125u);
  EXPECT_EQ(select1DCycles(cost(-1, FLOAT, {12})), 6u * (11 + 10) + 11);
  EXPECT_EQ(clamp1DCycles(cost(-1, HALF, {48})), 6u * (11 + 2 * 2) + 11);
}

TEST(ElementwiseCycles, AnOpTypeWithoutAVertexNamesBoth) {
  try {
    unaryOp1DCycles(cost(int(UnaryOpType::LOGICAL_NOT), FLOAT, {8}));
    FAIL() << "expected poplibs_error";
  } catch (const poputil::poplibs_error &e) {
    std::string what = e.what();
    EXPECT_NE(what.find("LOGICAL_NOT"), std::string::npos) << what;
    EXPECT_NE(what.find("float"), std::string::npos) << what;
  }
}

} // namespace
