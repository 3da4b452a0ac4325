// poplin matmuls against the host reference: shapes (1x1, odd, batch 1, grouped, K split over
// tiles), input/partials/output types, and 1, 4 and 1472 tiles.
#include "MatMul.hpp"
#include "OpHarness.hpp"

#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

using namespace poplar;
using namespace popsdk::test;

namespace {

struct Case {
  unsigned tiles; // 0: Poplar's CPU device (one tile)
  std::size_t groups, m, k, n;
  Type in = FLOAT, out = FLOAT;
  const char *partials = "float";
};

std::string nameOf(const Case &c) {
  std::ostringstream os;
  os << c.tiles << "tiles_g" << c.groups << "_" << c.m << "x" << c.k << "x" << c.n << "_" << c.in
     << "_" << c.partials << "_" << c.out;
  return os.str();
}

double epsilon(Type t) { return t == HALF ? std::ldexp(1.0, -10) : std::ldexp(1.0, -23); }

void runCase(const Case &c) {
  OpHarness h = c.tiles ? OpHarness(c.tiles) : OpHarness(Device::createCPUDevice());
  poplin::addCodelets(h.graph());
  const bool grouped = c.groups > 1;
  auto shape = [&](std::size_t r, std::size_t cols) {
    return grouped ? std::vector<std::size_t>{c.groups, r, cols}
                   : std::vector<std::size_t>{r, cols};
  };
  const auto a = hostData(c.in, c.groups * c.m * c.k, -2, 2, 1);
  const auto b = hostData(c.in, c.groups * c.k * c.n, -2, 2, 2);
  OptionFlags options{{"partialsType", c.partials}};
  Tensor A = h.input("a", c.in, shape(c.m, c.k), a);
  Tensor B = h.input("b", c.in, shape(c.k, c.n), b);
  Tensor C = grouped ? poplin::matMulGrouped(h.graph(), A, B, h.prog(), c.out, "mm", options)
                     : poplin::matMul(h.graph(), A, B, h.prog(), c.out, "mm", options);
  ASSERT_EQ(C.shape(), shape(c.m, c.n));
  h.output("c", C);
  h.run();
  const auto want = popsdk::reference::matMul(a, b, c.groups, c.m, c.k, c.n);
  const auto &got = h.result("c");
  const Type partials = c.in == FLOAT || std::string(c.partials) == "float" ? FLOAT : HALF;
  const double passes = std::ceil(double(c.k) / 16) + 1;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double tol = epsilon(partials) * want.magnitude[i] * passes +
                       epsilon(c.out) * std::fabs(want.values[i]) + 1e-9;
    ASSERT_NEAR(got[i], want.values[i], tol) << "element " << i;
  }
  EXPECT_GT(h.cycles(), 0u);
}

class MatMul : public testing::TestWithParam<Case> {};

TEST_P(MatMul, MatchesReference) { runCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(
    Shapes, MatMul,
    testing::Values(
        Case{1, 1, 1, 1, 1}, Case{1, 1, 3, 5, 7}, Case{4, 1, 1, 40, 9}, Case{4, 1, 17, 33, 19},
        Case{4, 3, 5, 6, 7}, Case{4, 1, 64, 300, 20}, Case{1, 1, 20, 48, 40, HALF, HALF, "half"},
        Case{4, 1, 20, 48, 40, HALF, FLOAT, "float"}, Case{4, 1, 9, 70, 33, HALF, HALF, "float"},
        Case{4, 2, 9, 20, 33, HALF, FLOAT, "half"}, Case{4, 1, 8, 24, 8, FLOAT, HALF, "float"},
        Case{1472, 1, 100, 200, 150}, Case{1472, 1, 64, 64, 64, HALF, HALF, "half"}),
    [](const testing::TestParamInfo<Case> &info) { return nameOf(info.param); });

// On one tile, N = 65,544 columns are one part: more than the AMP's 16-bit weight row length,
// so the plan takes the MAC vertex.
TEST(MatMulOneBigTile, OutputRowsLongerThanTheAmpsRowLengthField) { runCase({0, 1, 2, 8, 65544}); }

} // namespace
