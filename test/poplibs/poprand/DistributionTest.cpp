// Each distribution over 10^4 samples: values in range, mean and variance within five standard
// errors of the distribution's (so a wrong scale, offset or bias fails), for each output type.
#include "RandHarness.hpp"

#include <poprand/RandomGen.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace {

using namespace poplar;
using poprand::test::fraction;
using poprand::test::RandHarness;
using poprand::test::stats;

constexpr std::size_t kRows = 100, kCols = 100, kN = kRows * kCols;

/// Mean and variance within 5 standard errors; `kurtosis` is the distribution's mu4 / sigma^4.
void expectMoments(const std::vector<double> &xs, double mean, double variance, double kurtosis) {
  auto s = stats(xs);
  double n = double(xs.size());
  EXPECT_NEAR(s.mean, mean, 5 * std::sqrt(variance / n)) << "mean";
  EXPECT_NEAR(s.variance, variance, 5 * variance * std::sqrt((kurtosis - 1) / n)) << "variance";
}

class PoprandUniform : public ::testing::TestWithParam<Type> {};

TEST_P(PoprandUniform, RangeAndMoments) {
  Type type = GetParam();
  RandHarness h(4);
  Tensor seed = h.seed("seed", 11, 12);
  Tensor ref = h.reference({kRows, kCols});
  double lo = -2, hi = 3;
  Tensor out = poprand::uniform(h.graph(), &seed, 0, ref, type, lo, hi, h.prog());
  EXPECT_EQ(out.elementType(), type);
  EXPECT_EQ(out.shape(), ref.shape());
  h.output("out", out);
  h.run();
  auto xs = h.result("out");
  auto s = stats(xs);
  EXPECT_GE(s.min, lo);
  EXPECT_LE(s.max, hi);
  if (type == INT) {
    // The six integers -2..3, each 1/6 of the time.
    for (int v = -2; v <= 3; ++v)
      EXPECT_NEAR(fraction(xs, v), 1.0 / 6, 5 * std::sqrt((1.0 / 6) * (5.0 / 6) / kN)) << v;
    expectMoments(xs, 0.5, 35.0 / 12, 1.73);
  } else {
    EXPECT_LT(s.min, lo + 0.01);
    EXPECT_GT(s.max, hi - 0.01);
    expectMoments(xs, 0.5, 25.0 / 12, 1.8);
  }
}

INSTANTIATE_TEST_SUITE_P(Types, PoprandUniform, ::testing::Values(FLOAT, HALF, INT),
                         [](const auto &info) { return info.param.toString(); });

TEST(PoprandUniform, IntOverTheWholeRangeUsesAllBits) {
  RandHarness h(2);
  Tensor seed = h.seed("seed", 3, 4);
  Tensor out = poprand::uniform(h.graph(), &seed, 0, h.reference({1000}), INT, -2147483648.0,
                                2147483647.0, h.prog());
  h.output("out", out);
  h.run();
  auto s = stats(h.result("out"));
  EXPECT_LT(s.min, -2.0e9);
  EXPECT_GT(s.max, 2.0e9);
  EXPECT_NEAR(s.mean, 0, 5 * 4294967296.0 / std::sqrt(12.0 * 1000));
}

TEST(PoprandUniform, EqualBoundsGiveThatValue) {
  RandHarness h(2);
  Tensor out =
      poprand::uniform(h.graph(), nullptr, 0, h.reference({64}), FLOAT, 1.5, 1.5, h.prog());
  h.output("out", out);
  h.run();
  for (double x : h.result("out"))
    EXPECT_EQ(x, 1.5);
}

class PoprandNormal : public ::testing::TestWithParam<Type> {};

TEST_P(PoprandNormal, Moments) {
  RandHarness h(4);
  Tensor seed = h.seed("seed", 5, 6);
  Tensor out = poprand::normal(h.graph(), &seed, 1, h.reference({kRows, kCols}), GetParam(), 1.5,
                               2.0, h.prog());
  h.output("out", out);
  h.run();
  auto xs = h.result("out");
  // The IPU's normal is a sum of twelve uniforms: kurtosis 2.9, bounded at 5.82 deviations.
  expectMoments(xs, 1.5, 4.0, 3.0);
  auto s = stats(xs);
  EXPECT_GT(s.max, 1.5 + 2 * 3.0);
  EXPECT_LT(s.min, 1.5 - 2 * 3.0);
  EXPECT_LE(s.max, 1.5 + 2 * 5.82);
  // About 68.3% within one deviation.
  double within = 0;
  for (double x : xs)
    within += std::fabs(x - 1.5) <= 2.0;
  EXPECT_NEAR(within / kN, 0.683, 0.025);
}

INSTANTIATE_TEST_SUITE_P(Types, PoprandNormal, ::testing::Values(FLOAT, HALF),
                         [](const auto &info) { return info.param.toString(); });

class PoprandTruncatedNormal : public ::testing::TestWithParam<Type> {};

TEST_P(PoprandTruncatedNormal, WithinAlphaDeviations) {
  RandHarness h(4);
  Tensor seed = h.seed("seed", 7, 8);
  double mean = -1, sd = 0.5, alpha = 1;
  Tensor out = poprand::truncatedNormal(h.graph(), &seed, 2, h.reference({kRows, kCols}),
                                        GetParam(), mean, sd, alpha, h.prog());
  h.output("out", out);
  h.run();
  auto xs = h.result("out");
  auto s = stats(xs);
  EXPECT_GE(s.min, mean - alpha * sd - 1e-3);
  EXPECT_LE(s.max, mean + alpha * sd + 1e-3);
  EXPECT_NEAR(s.mean, mean, 5 * sd * std::sqrt(0.3 / kN));
  // A normal truncated at one deviation has variance 0.291 sd^2 (0.285 for the IPU's
  // approximation, whose values lie on a grid of 1/32 deviation).
  EXPECT_NEAR(s.variance / (sd * sd), 0.288, 0.02);
}

INSTANTIATE_TEST_SUITE_P(Types, PoprandTruncatedNormal, ::testing::Values(FLOAT, HALF),
                         [](const auto &info) { return info.param.toString(); });

class PoprandBernoulli : public ::testing::TestWithParam<Type> {};

TEST_P(PoprandBernoulli, OnesWithTheProbability) {
  RandHarness h(4);
  Tensor seed = h.seed("seed", 9, 10);
  double p = 0.3;
  Tensor out =
      poprand::bernoulli(h.graph(), &seed, 0, h.reference({kRows, kCols}), GetParam(), p, h.prog());
  h.output("out", out);
  h.run();
  auto xs = h.result("out");
  EXPECT_DOUBLE_EQ(fraction(xs, 0) + fraction(xs, 1), 1.0);
  EXPECT_NEAR(fraction(xs, 1), p, 5 * std::sqrt(p * (1 - p) / kN));
}

TEST_P(PoprandBernoulli, ProbabilitiesZeroAndOneAreExact) {
  RandHarness h(2);
  Tensor ref = h.reference({1000});
  h.output("zero", poprand::bernoulli(h.graph(), nullptr, 0, ref, GetParam(), 0.0, h.prog()));
  h.output("one", poprand::bernoulli(h.graph(), nullptr, 0, ref, GetParam(), 1.0, h.prog()));
  h.run();
  EXPECT_EQ(fraction(h.result("zero"), 0), 1.0);
  EXPECT_EQ(fraction(h.result("one"), 1), 1.0);
}

INSTANTIATE_TEST_SUITE_P(Types, PoprandBernoulli, ::testing::Values(FLOAT, HALF, INT),
                         [](const auto &info) { return info.param.toString(); });

class PoprandLogUniform : public ::testing::TestWithParam<Type> {};

TEST_P(PoprandLogUniform, LogarithmIsUniform) {
  Type type = GetParam();
  RandHarness h(4);
  Tensor seed = h.seed("seed", 13, 14);
  double lo = 1, hi = 1000;
  Tensor out = poprand::logUniform(h.graph(), &seed, 0, h.reference({kRows, kCols}), type, lo, hi,
                                   h.prog(), 10.0);
  h.output("out", out);
  h.run();
  auto xs = h.result("out");
  auto s = stats(xs);
  EXPECT_GE(s.min, lo);
  EXPECT_LE(s.max, hi);
  std::vector<double> logs;
  for (double x : xs) {
    if (type == INT) {
      EXPECT_EQ(x, std::round(x));
    }
    logs.push_back(std::log(x));
  }
  double range = std::log(hi) - std::log(lo);
  if (type == INT) {
    // Each integer k takes the log-uniform mass of [k - 1/2, k + 1/2]: ln 3 / ln 2001 for 1.
    double p1 = std::log(1.5 / 0.5) / std::log(1000.5 / 0.5);
    EXPECT_NEAR(fraction(xs, 1), p1, 5 * std::sqrt(p1 * (1 - p1) / kN));
  } else {
    expectMoments(logs, std::log(lo) + range / 2, range * range / 12, 1.8);
  }
  // A third of the values in each decade.
  double belowTen = 0;
  for (double x : xs)
    belowTen += x < 10;
  EXPECT_NEAR(belowTen / kN, type == INT ? std::log(9.5 / 0.5) / std::log(1000.5 / 0.5) : 1.0 / 3,
              5 * std::sqrt(0.22 / kN));
}

INSTANTIATE_TEST_SUITE_P(Types, PoprandLogUniform, ::testing::Values(FLOAT, HALF, INT),
                         [](const auto &info) { return info.param.toString(); });

TEST(PoprandLogUniform, HalfRangeIsSqueezedToRepresentableValues) {
  RandHarness h(2);
  // Halves near 3000 are 2 apart: [2049, 4097] holds halves 2050 .. 4096.
  Tensor out =
      poprand::logUniform(h.graph(), nullptr, 0, h.reference({2000}), HALF, 2049, 4097, h.prog());
  h.output("out", out);
  h.run();
  auto s = stats(h.result("out"));
  EXPECT_GE(s.min, 2050);
  EXPECT_LE(s.max, 4096);
}

class PoprandDropout : public ::testing::TestWithParam<Type> {};

TEST_P(PoprandDropout, KeepsWithTheProbabilityAndScales) {
  Type type = GetParam();
  RandHarness h(4);
  Tensor seed = h.seed("seed", 15, 16);
  auto values = popsdk::test::hostData(type, kN, 1, 4);
  Tensor in = h.input("in", type, {kRows, kCols}, values);
  double keep = 0.75, scale = 1 / keep;
  Tensor out = poprand::dropout(h.graph(), &seed, 0, in, in, keep, scale, h.prog());
  h.output("out", out);
  h.run();
  auto xs = h.result("out");
  std::size_t kept = 0;
  for (std::size_t i = 0; i < kN; ++i) {
    if (xs[i] == 0)
      continue;
    ++kept;
    // The vertex multiplies in float, then rounds to the output type.
    EXPECT_EQ(xs[i], popsdk::test::roundTo(type, float(scale) * float(values[i]))) << i;
  }
  EXPECT_NEAR(double(kept) / kN, keep, 5 * std::sqrt(keep * (1 - keep) / kN));
}

INSTANTIATE_TEST_SUITE_P(Types, PoprandDropout, ::testing::Values(FLOAT, HALF),
                         [](const auto &info) { return info.param.toString(); });

TEST(PoprandDropout, MaskFollowsTheReferenceWhicheverTensorTheOutputClones) {
  RandHarness h(4);
  Tensor seed = h.seed("seed", 17, 18);
  auto values = popsdk::test::hostData(FLOAT, 4096, 1, 2);
  // The input mapped on tile 3 only; the reference spread over all four tiles.
  Tensor in = h.graph().addVariable(FLOAT, {4096}, "in");
  h.graph().setTileMapping(in, 3);
  h.write("in", in, values);
  Tensor ref = h.reference({4096});
  Tensor a = poprand::dropout(h.graph(), &seed, 4, in, ref, 0.5, 2.0, true, h.prog());
  Tensor b = poprand::dropout(h.graph(), &seed, 4, in, ref, 0.5, 2.0, false, h.prog());
  EXPECT_EQ(h.graph().getTileMapping(a), h.graph().getTileMapping(ref));
  EXPECT_EQ(h.graph().getTileMapping(b), h.graph().getTileMapping(in));
  h.output("a", a);
  h.output("b", b);
  h.run();
  EXPECT_EQ(h.result("a"), h.result("b"));
  EXPECT_NEAR(fraction(h.result("a"), 0), 0.5, 5 * std::sqrt(0.25 / 4096));
}

} // namespace

namespace {

TEST(PoprandShapedDropout, WholeColumnsKeptOrDropped) {
  RandHarness h(4);
  Tensor seed = h.seed("seed", 19, 20);
  std::size_t rows = 8, cols = 512;
  auto values = popsdk::test::hostData(HALF, rows * cols, 1, 4);
  Tensor in = h.input("in", HALF, {rows, cols}, values);
  Tensor ref = h.reference({1, cols});
  double keep = 0.25, scale = 4;
  Tensor out = poprand::shapedDropout(h.graph(), &seed, 0, in, ref, keep, scale, h.prog());
  EXPECT_EQ(out.shape(), in.shape());
  h.output("out", out);
  h.run();
  auto xs = h.result("out");
  std::size_t keptColumns = 0;
  for (std::size_t c = 0; c < cols; ++c) {
    bool kept = xs[c] != 0;
    keptColumns += kept;
    for (std::size_t r = 0; r < rows; ++r) {
      std::size_t i = r * cols + c;
      EXPECT_EQ(xs[i], kept ? popsdk::test::roundTo(HALF, values[i] * scale) : 0.0)
          << r << "," << c;
    }
  }
  EXPECT_NEAR(double(keptColumns) / cols, keep, 5 * std::sqrt(keep * (1 - keep) / cols));
}

} // namespace
