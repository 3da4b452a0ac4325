// 64-bit integers: the Int64 codelet's kernels (codelets/Int64Kernels.hpp) run on the tile
// against the same source compiled for the host, on random inputs.
#include "Rig.hpp"
#include "codelets/Int64Kernels.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace poplar;
using namespace realworld;

namespace {

TEST(RealWorld, Int64XoroshiroMatchesTheHost) {
  std::mt19937 rng(7);
  for (int round = 0; round < 3; ++round) {
    std::vector<unsigned> seed = {unsigned(rng()), unsigned(rng()), unsigned(rng()),
                                  unsigned(rng())};
    Rig rig("Int64.cpp");
    auto s = rig.rawTensor(UNSIGNED_INT, toBytes(seed));
    auto out = rig.rawTensor(UNSIGNED_INT, std::vector<std::uint8_t>(4 * 2 * 50));
    auto v = rig.vertex("Xoroshiro");
    rig.graph().connect(v["seed"], s);
    rig.graph().connect(v["out"], out);
    ASSERT_EQ(rig.run(), "");
    std::vector<unsigned> want(2 * 50);
    int64k::draw(seed.data(), want.data(), 50);
    EXPECT_EQ(fromBytes<unsigned>(rig.bytes(out)), want);
  }
}

template <typename T> void checkAccumulate(Type type, const std::string &name, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> in(37);
  for (T &x : in)
    x = T(rng() >> (sizeof(T) == 8 ? 30 : 33)); // large enough to carry between words
  in[3] = T(-5);
  Rig rig("Int64.cpp");
  auto ti = rig.rawTensor(type, toBytes(in));
  auto out = rig.rawTensor(LONGLONG, std::vector<std::uint8_t>(6 * 8));
  auto v = rig.vertex(name);
  rig.graph().connect(v["in"], ti);
  rig.graph().connect(v["out"], out);
  ASSERT_EQ(rig.run(), "") << name;
  std::vector<long long> want(6);
  int64k::accumulate(in.data(), unsigned(in.size()), want.data());
  EXPECT_EQ(fromBytes<long long>(rig.bytes(out)), want) << name;
}

TEST(RealWorld, Int64AccumulateMatchesTheHost) {
  checkAccumulate<int>(INT, "Accumulate64<int>", 1);
  checkAccumulate<unsigned>(UNSIGNED_INT, "Accumulate64<unsigned int>", 2);
  checkAccumulate<long long>(LONGLONG, "Accumulate64<long long>", 3);
}

TEST(RealWorld, Int64ShiftsAndComparesMatchTheHost) {
  std::mt19937_64 rng(11);
  std::vector<long long> in(40);
  std::vector<unsigned> amounts(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    in[i] = (long long)rng();
    amounts[i] = unsigned(i * 7 % 64); // 0, 32 and 63 among them
  }
  in[5] = in[6]; // equal neighbours
  in[9] = -1;
  amounts[0] = 0;
  amounts[1] = 32;
  amounts[2] = 63;
  Rig rig("Int64.cpp");
  auto ti = rig.rawTensor(LONGLONG, toBytes(in));
  auto ta = rig.rawTensor(UNSIGNED_INT, toBytes(amounts));
  auto out = rig.rawTensor(LONGLONG, std::vector<std::uint8_t>(5 * 8 * in.size()));
  auto v = rig.vertex("Shifts64");
  rig.graph().connect(v["in"], ti);
  rig.graph().connect(v["amounts"], ta);
  rig.graph().connect(v["out"], out);
  ASSERT_EQ(rig.run(), "");
  std::vector<long long> want(5 * in.size());
  int64k::shifts(in.data(), amounts.data(), unsigned(in.size()), want.data());
  auto got = fromBytes<long long>(rig.bytes(out));
  for (std::size_t k = 0; k < want.size(); ++k)
    EXPECT_EQ(got[k], want[k]) << "element " << k / 5 << " result " << k % 5 << " x=" << in[k / 5]
                               << " n=" << amounts[k / 5];
}

TEST(RealWorld, Int64DivisionAndBitCountsMatchTheHost) {
  std::mt19937_64 rng(17);
  std::vector<long long> num(30), den(30);
  for (std::size_t i = 0; i < num.size(); ++i) {
    num[i] = (long long)rng() >> (i % 40);
    den[i] = (long long)(rng() >> (20 + i % 44)) * (i % 3 == 0 ? -1 : 1);
    if (den[i] == 0)
      den[i] = 3;
  }
  num[0] = INT64_MIN;
  den[0] = 7;
  num[1] = 5;
  den[1] = -1;
  Rig rig("Int64.cpp");
  auto out = rig.rawTensor(LONGLONG, std::vector<std::uint8_t>(6 * 8 * num.size()));
  auto v = rig.vertex("Divide64");
  rig.graph().connect(v["num"], rig.rawTensor(LONGLONG, toBytes(num)));
  rig.graph().connect(v["den"], rig.rawTensor(LONGLONG, toBytes(den)));
  rig.graph().connect(v["out"], out);
  ASSERT_EQ(rig.run(), "");
  std::vector<long long> want(6 * num.size());
  int64k::divide(num.data(), den.data(), unsigned(num.size()), want.data());
  auto got = fromBytes<long long>(rig.bytes(out));
  for (std::size_t k = 0; k < want.size(); ++k)
    EXPECT_EQ(got[k], want[k]) << num[k / 6] << " / " << den[k / 6] << " result " << k % 6;
}

TEST(RealWorld, OddWidthIntegersFromBitFieldsAndSwitchesMatchTheHost) {
  std::mt19937_64 rng(29);
  std::vector<long long> in = {0,
                               -0x7ff0000000000000ll - 1 + 1,
                               0x7ff0000000000000ll,
                               12345,
                               INT64_MIN,
                               -1,
                               1000,
                               -1001,
                               1ll << 39,
                               -(1ll << 39)};
  for (int k = 0; k < 30; ++k)
    in.push_back((long long)rng() >> (k % 50));
  Rig rig("Int64.cpp");
  auto out = rig.rawTensor(LONGLONG, std::vector<std::uint8_t>(4 * 8 * in.size()));
  auto v = rig.vertex("BitFields64");
  rig.graph().connect(v["in"], rig.rawTensor(LONGLONG, toBytes(in)));
  rig.graph().connect(v["out"], out);
  ASSERT_EQ(rig.run(), "");
  std::vector<long long> want(4 * in.size());
  int64k::bitfields(in.data(), unsigned(in.size()), want.data());
  auto got = fromBytes<long long>(rig.bytes(out));
  for (std::size_t k = 0; k < want.size(); ++k)
    EXPECT_EQ(got[k], want[k]) << "x=" << in[k / 4] << " result " << k % 4;
}

TEST(RealWorld, Int64FloatConversionsMatchTheHost) {
  std::mt19937_64 rng(23);
  std::vector<long long> in;
  std::vector<float> floats;
  for (int k = 0; k < 64; ++k) {
    in.push_back((long long)rng() >> k); // every magnitude, both signs
    in.push_back((long long)(rng() >> k) | 1);
    floats.push_back(std::ldexp(float(std::int32_t(rng())), k % 51 - 20)); // below 2^62
    floats.push_back(float(k) - 31.75f);
  }
  // Ties at float's precision, and the extremes.
  in.insert(in.end(), {(1ll << 40) + (1ll << 16), (1ll << 40) + (3ll << 16), INT64_MIN, INT64_MAX,
                       -1, 0, (1ll << 24) + 1});
  floats.insert(floats.end(), {0.0f, -0.0f, 4294967296.0f, 9.2e18f, -9.2e18f, 0.999f});
  floats.resize(in.size(), 1.0f);
  Rig rig("Int64.cpp");
  auto tf = rig.rawTensor(FLOAT, std::vector<std::uint8_t>(4 * 2 * in.size()));
  auto ti = rig.rawTensor(LONGLONG, std::vector<std::uint8_t>(8 * 2 * in.size()));
  auto v = rig.vertex("Convert64");
  rig.graph().connect(v["in"], rig.rawTensor(LONGLONG, toBytes(in)));
  rig.graph().connect(v["floats"], rig.rawTensor(FLOAT, toBytes(floats)));
  rig.graph().connect(v["toFloat"], tf);
  rig.graph().connect(v["toInt"], ti);
  ASSERT_EQ(rig.run(), "");
  std::vector<float> wantF(2 * in.size());
  std::vector<long long> wantI(2 * in.size());
  int64k::convert(in.data(), floats.data(), unsigned(in.size()), wantF.data(), wantI.data());
  auto gotF = fromBytes<float>(rig.bytes(tf));
  auto gotI = fromBytes<long long>(rig.bytes(ti));
  for (std::size_t k = 0; k < wantF.size(); ++k) {
    EXPECT_EQ(gotF[k], wantF[k]) << "to float of " << in[k / 2] << (k % 2 ? " unsigned" : "");
    EXPECT_EQ(gotI[k], wantI[k]) << "to int of " << floats[k / 2] << (k % 2 ? " unsigned" : "");
  }
}

TEST(RealWorld, EightByteStructCopies) {
  Rig rig("Int64.cpp");
  std::vector<double> pairs = randomData(14, -9, 9, 0.5, 4);
  auto t = rig.tensor(FLOAT, pairs);
  auto v = rig.vertex("ComplexReverse");
  rig.graph().connect(v["pairs"], t);
  ASSERT_EQ(rig.run(), "");
  std::vector<double> want;
  for (std::size_t k = pairs.size() / 2; k-- > 0;)
    want.insert(want.end(), {pairs[2 * k], pairs[2 * k + 1]});
  EXPECT_EQ(rig.values(t), want);
}

} // namespace
