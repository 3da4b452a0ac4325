// Differential test of popc's software double precision: the kernels of
// codelets/DoubleKernels.hpp on the tile and, compiled by the host compiler, on the host; the
// results must be the same bits.
#include "Rig.hpp"
#include "codelets/DoubleKernels.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace poplar;
using namespace realworld;

namespace {

/// Floats over many binades (and some subnormal, negative and zero ones), away from zero if
/// asked.
std::vector<float> randomFloats(std::size_t n, unsigned seed, bool nonzero = false) {
  std::mt19937 rng(seed);
  std::vector<float> v(n);
  for (float &x : v) {
    float magnitude = std::ldexp(1.0f + float(rng() % 4096) / 4096, int(rng() % 40) - 20);
    if (rng() % 16 == 0 && !nonzero)
      magnitude = rng() % 2 ? 0.0f : std::ldexp(float(rng() % 1000), -149); // zero, subnormal
    x = rng() % 2 ? -magnitude : magnitude;
  }
  return v;
}

class Doubles : public ::testing::TestWithParam<unsigned> {};

TEST_P(Doubles, ArithmeticMatchesTheHost) {
  unsigned n = GetParam();
  auto a = randomFloats(n, 1), b = randomFloats(n, 2, true);
  std::vector<int> k(n);
  std::mt19937 rng(3);
  for (int &x : k)
    x = int(rng());
  Rig rig("Doubles.cpp");
  auto out = rig.rawTensor(UNSIGNED_LONGLONG, std::vector<std::uint8_t>(8 * 8 * n));
  auto narrowed = rig.rawTensor(FLOAT, std::vector<std::uint8_t>(4 * n));
  auto halves = rig.rawTensor(HALF, std::vector<std::uint8_t>(2 * n));
  auto ints = rig.rawTensor(INT, std::vector<std::uint8_t>(4 * n));
  auto longs = rig.rawTensor(UNSIGNED_LONGLONG, std::vector<std::uint8_t>(8 * n));
  auto v = rig.vertex("DoubleArithmetic");
  rig.graph().connect(v["a"], rig.rawTensor(FLOAT, toBytes(a)));
  rig.graph().connect(v["b"], rig.rawTensor(FLOAT, toBytes(b)));
  rig.graph().connect(v["k"], rig.rawTensor(INT, toBytes(k)));
  rig.graph().connect(v["out"], out);
  rig.graph().connect(v["narrowed"], narrowed);
  rig.graph().connect(v["halves"], halves);
  rig.graph().connect(v["ints"], ints);
  rig.graph().connect(v["longs"], longs);
  ASSERT_EQ(rig.run(), "");
  std::vector<double> wantOut(8 * n);
  std::vector<float> wantNarrowed(n);
  std::vector<half> wantHalves(n);
  std::vector<int> wantInts(n);
  std::vector<std::uint64_t> wantLongs(n);
  doublek::arithmetic(
      a.data(), b.data(), k.data(), n,
      {wantOut.data(), wantNarrowed.data(), wantHalves.data(), wantInts.data(), wantLongs.data()});
  EXPECT_EQ(rig.bytes(out), toBytes(wantOut));
  EXPECT_EQ(rig.bytes(narrowed), toBytes(wantNarrowed));
  EXPECT_EQ(rig.bytes(halves), toBytes(wantHalves));
  EXPECT_EQ(rig.bytes(ints), toBytes(wantInts));
  EXPECT_EQ(rig.bytes(longs), toBytes(wantLongs));
}

TEST_P(Doubles, AccumulatorsAndDoubleLiteralsMatchTheHost) {
  unsigned n = GetParam();
  auto data = randomFloats(n, 4);
  Rig rig("Doubles.cpp");
  auto t = rig.rawTensor(FLOAT, toBytes(data));
  auto sums = rig.rawTensor(UNSIGNED_LONGLONG, std::vector<std::uint8_t>(3 * 8));
  auto above = rig.tensor(UNSIGNED_INT, {0});
  auto v = rig.vertex("DoubleAccumulate");
  rig.graph().connect(v["data"], t);
  rig.graph().connect(v["sums"], sums);
  rig.graph().connect(v["above"], above[0]);
  ASSERT_EQ(rig.run(), "");
  std::vector<double> wantSums(3);
  unsigned wantAbove = 0;
  doublek::accumulate(data.data(), n, wantSums.data(), &wantAbove);
  EXPECT_EQ(rig.bytes(t), toBytes(data));
  EXPECT_EQ(rig.bytes(sums), toBytes(wantSums));
  EXPECT_EQ(rig.values(above)[0], wantAbove);
}

INSTANTIATE_TEST_SUITE_P(Sizes, Doubles, ::testing::Values(1u, 16u, 300u));

} // namespace
