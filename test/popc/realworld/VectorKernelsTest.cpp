// Differential test of popc's vector selection: the kernels of codelets/VectorKernels.hpp run on
// the tile (f32v2 / f16v4 instructions, ld64 / st64, lane accesses, half2 <-> float2
// conversions) and, compiled by the host compiler, on the host; the results must be the same
// bits.
#include "codelets/VectorKernels.hpp"
#include "Rig.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace poplar;
using namespace realworld;

namespace {

/// n values in [-8, 8]; `awayFromZero` keeps them at least 1/4 from it (divisors).
template <typename T>
std::vector<T> randomValues(std::size_t n, unsigned seed, bool awayFromZero = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(awayFromZero ? 0.25f : -8.0f, 8.0f);
  std::vector<T> v(n);
  for (T &x : v)
    x = T(awayFromZero && rng() % 2 ? -d(rng) : d(rng));
  return v;
}

class VectorKernels : public ::testing::TestWithParam<unsigned> {};

TEST_P(VectorKernels, Float2ArithmeticMatchesTheHost) {
  unsigned n = GetParam();
  auto a = randomValues<float>(n, 1), b = randomValues<float>(n, 2, true),
       c = randomValues<float>(n, 3);
  Rig rig("VectorKernels.cpp");
  auto out = rig.rawTensor(FLOAT, zeroBytes<float>(6 * n));
  auto v = rig.vertex("Arithmetic<float>");
  rig.graph().connect(v["a"], rig.rawTensor(FLOAT, toBytes(a)));
  rig.graph().connect(v["b"], rig.rawTensor(FLOAT, toBytes(b)));
  rig.graph().connect(v["c"], rig.rawTensor(FLOAT, toBytes(c)));
  rig.graph().connect(v["out"], out);
  ASSERT_EQ(rig.run(), "");
  std::vector<float> want(6 * n);
  vectork::float2Arithmetic(a.data(), b.data(), c.data(), want.data(), n);
  EXPECT_EQ(rig.bytes(out), toBytes(want));
}

TEST_P(VectorKernels, Half4ArithmeticMatchesTheHost) {
  unsigned n = GetParam();
  auto a = randomValues<half>(n, 4), b = randomValues<half>(n, 5), c = randomValues<half>(n, 6);
  Rig rig("VectorKernels.cpp");
  auto out = rig.rawTensor(HALF, zeroBytes<half>(5 * n));
  auto v = rig.vertex("Arithmetic<half>");
  rig.graph().connect(v["a"], rig.rawTensor(HALF, toBytes(a)));
  rig.graph().connect(v["b"], rig.rawTensor(HALF, toBytes(b)));
  rig.graph().connect(v["c"], rig.rawTensor(HALF, toBytes(c)));
  rig.graph().connect(v["out"], out);
  ASSERT_EQ(rig.run(), "");
  std::vector<half> want(5 * n);
  vectork::half4Arithmetic(a.data(), b.data(), c.data(), want.data(), n);
  EXPECT_EQ(rig.bytes(out), toBytes(want));
}

TEST_P(VectorKernels, VectorAccumulatorsMatchTheHost) {
  unsigned n = GetParam();
  auto a = randomValues<float>(n, 7), b = randomValues<float>(n, 8);
  auto ha = randomValues<half>(n, 9), hb = randomValues<half>(n, 10);
  Rig rig("VectorKernels.cpp");
  auto out = rig.rawTensor(FLOAT, zeroBytes<float>(2));
  auto v = rig.vertex("Dots");
  rig.graph().connect(v["a"], rig.rawTensor(FLOAT, toBytes(a)));
  rig.graph().connect(v["b"], rig.rawTensor(FLOAT, toBytes(b)));
  rig.graph().connect(v["ha"], rig.rawTensor(HALF, toBytes(ha)));
  rig.graph().connect(v["hb"], rig.rawTensor(HALF, toBytes(hb)));
  rig.graph().connect(v["out"], out);
  ASSERT_EQ(rig.run(), "");
  std::vector<float> want(2);
  vectork::dots(a.data(), b.data(), ha.data(), hb.data(), want.data(), n);
  EXPECT_EQ(rig.bytes(out), toBytes(want));
}

TEST_P(VectorKernels, Half2Float2ConversionsMatchTheHost) {
  unsigned n = GetParam();
  auto h = randomValues<half>(n, 11);
  std::vector<float> f = randomValues<float>(n, 12);
  f[0] = 1.0f + 1.0f / 2048; // h * f ties between two halves: to even
  Rig rig("VectorKernels.cpp");
  auto wide = rig.rawTensor(FLOAT, zeroBytes<float>(n));
  auto narrow = rig.rawTensor(HALF, zeroBytes<half>(n));
  auto v = rig.vertex("Conversions");
  rig.graph().connect(v["h"], rig.rawTensor(HALF, toBytes(h)));
  rig.graph().connect(v["f"], rig.rawTensor(FLOAT, toBytes(f)));
  rig.graph().connect(v["wide"], wide);
  rig.graph().connect(v["narrow"], narrow);
  ASSERT_EQ(rig.run(), "");
  std::vector<float> wantWide(n);
  std::vector<half> wantNarrow(n);
  vectork::conversions(h.data(), f.data(), wantWide.data(), wantNarrow.data(), n);
  EXPECT_EQ(rig.bytes(wide), toBytes(wantWide));
  EXPECT_EQ(rig.bytes(narrow), toBytes(wantNarrow));
}

TEST_P(VectorKernels, LaneAccessesMatchTheHost) {
  unsigned n = GetParam();
  for (unsigned k = 0; k < 4; ++k) {
    auto f = randomValues<float>(n, 13 + k);
    auto h = randomValues<half>(n, 17 + k);
    std::vector<short> s(n);
    std::mt19937 rng(21 + k);
    for (short &x : s)
      x = short(rng());
    Rig rig("VectorKernels.cpp");
    auto tf = rig.rawTensor(FLOAT, toBytes(f));
    auto th = rig.rawTensor(HALF, toBytes(h));
    auto sums = rig.rawTensor(INT, zeroBytes<int>(n / 2));
    auto v = rig.vertex("Lanes");
    rig.graph().connect(v["f"], tf);
    rig.graph().connect(v["h"], th);
    rig.graph().connect(v["s"], rig.rawTensor(SHORT, toBytes(s)));
    rig.graph().connect(v["sums"], sums);
    rig.graph().setInitialValue(v["value"], -2.5f);
    rig.graph().setInitialValue(v["k"], k);
    ASSERT_EQ(rig.run(), "");
    std::vector<int> wantSums(n / 2);
    vectork::lanes(f.data(), h.data(), s.data(), wantSums.data(), -2.5f, k, n);
    EXPECT_EQ(rig.bytes(tf), toBytes(f)) << k;
    EXPECT_EQ(rig.bytes(th), toBytes(h)) << k;
    EXPECT_EQ(rig.bytes(sums), toBytes(wantSums)) << k;
  }
}

TEST_P(VectorKernels, SpilledPairsMatchTheHost) {
  unsigned n = GetParam();
  auto a = randomValues<float>(n, 25);
  Rig rig("VectorKernels.cpp");
  auto out = rig.rawTensor(FLOAT, zeroBytes<float>(32));
  auto v = rig.vertex("ManyAccumulators");
  rig.graph().connect(v["a"], rig.rawTensor(FLOAT, toBytes(a)));
  rig.graph().connect(v["out"], out);
  ASSERT_EQ(rig.run(), "");
  std::vector<float> want(32);
  vectork::manyAccumulators(a.data(), want.data(), n);
  EXPECT_EQ(rig.bytes(out), toBytes(want));
}

INSTANTIATE_TEST_SUITE_P(Sizes, VectorKernels, ::testing::Values(4u, 64u, 200u));

} // namespace
