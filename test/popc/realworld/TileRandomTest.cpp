// The tile's random generator (__builtin_ipu_urand32/urand64 without an include) against a host
// model of it, a Monte Carlo pi from it, and 64-bit global initialisers read back bit for bit.
#include "Rig.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

using namespace poplar;
using namespace realworld;

namespace {

/// The generator __popc_builtins.h documents: xoroshiro128+ per context, its state words the
/// splitmix64 outputs from 0x5eed1c0de (context c takes outputs 2c and 2c+1).
struct HostGenerator {
  std::uint64_t s0, s1;
  explicit HostGenerator(unsigned context) {
    std::uint64_t x = 0x5eed1c0deull;
    auto splitmix = [&x] {
      std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      return z ^ (z >> 31);
    };
    for (unsigned c = 0; c < context; ++c)
      splitmix(), splitmix();
    s0 = splitmix();
    s1 = splitmix();
  }
  std::uint64_t next() {
    std::uint64_t a = s0, b = s1, result = a + b;
    b ^= a;
    s0 = ((a << 55) | (a >> 9)) ^ b ^ (b << 14);
    s1 = (b << 36) | (b >> 28);
    return result;
  }
};

TEST(RealWorld, UrandWorkersDrawTheirOwnXoroshiroStreams) {
  const unsigned perWorker = 9;
  Rig rig("TileRandom.cpp");
  auto out = rig.rawTensor(UNSIGNED_INT, zeroBytes<unsigned>(6 * perWorker));
  auto v = rig.vertex("RandomDraws");
  rig.graph().connect(v["out"], out);
  rig.graph().setInitialValue(v["perWorker"], perWorker);
  ASSERT_EQ(rig.run(), "");
  std::vector<unsigned> want;
  for (unsigned wid = 0; wid < 6; ++wid) {
    HostGenerator g(wid);
    for (unsigned k = 0; k < perWorker; ++k)
      want.push_back(k % 2 == 0 ? unsigned(g.next()) : unsigned(g.next() >> 32));
  }
  EXPECT_EQ(fromBytes<unsigned>(rig.bytes(out)), want);
}

TEST(RealWorld, UrandMonteCarloPiIsCloseToPi) {
  const unsigned iterations = 2000;
  Rig rig("TileRandom.cpp");
  auto hits = rig.rawTensor(UNSIGNED_INT, zeroBytes<unsigned>(6));
  auto v = rig.vertex("PiHits");
  rig.graph().connect(v["hits"], hits);
  rig.graph().setInitialValue(v["iterations"], iterations);
  ASSERT_EQ(rig.run(), "");
  std::vector<unsigned> got = fromBytes<unsigned>(rig.bytes(hits));
  unsigned total = 0;
  for (unsigned wid = 0; wid < 6; ++wid) {
    HostGenerator g(wid);
    unsigned want = 0;
    for (unsigned i = 0; i < iterations; ++i) {
      float x = float(unsigned(g.next()) >> 8) * (1.0f / 16777216.0f);
      float y = float(unsigned(g.next()) >> 8) * (1.0f / 16777216.0f);
      want += (x * x + y * y) < 1.0f;
    }
    EXPECT_EQ(got[wid], want) << "worker " << wid;
    total += got[wid];
  }
  EXPECT_NEAR(4.0 * total / (6.0 * iterations), M_PI, 0.05);
}

// Before the fix popc rejected any global initialised with a 64-bit integer or a double
// ("cannot place global ... in tile memory: 64-bit integer constant").
TEST(RealWorld, Regression_Int64AndDoubleGlobalInitialisersArePlaced) {
  const std::uint64_t mixers[4] = {0x9e3779b97f4a7c15ull, 0xbf58476d1ce4e5b9ull,
                                   0x94d049bb133111ebull, 0x0123456789abcdefull};
  const double scales[4] = {0.5, -1.25, 3.0e10, 1.0 / 3.0};
  std::vector<unsigned> in = {0, 1, 2, 3, 7, 12345, 0xfffffffeu};
  Rig rig("TileRandom.cpp");
  auto ti = rig.rawTensor(UNSIGNED_INT, toBytes(in));
  auto out = rig.rawTensor(UNSIGNED_INT, zeroBytes<unsigned>(2 * in.size()));
  auto scaled = rig.rawTensor(FLOAT, zeroBytes<float>(in.size()));
  auto v = rig.vertex("Lookup64");
  rig.graph().connect(v["in"], ti);
  rig.graph().connect(v["out"], out);
  rig.graph().connect(v["scaled"], scaled);
  ASSERT_EQ(rig.run(), "");
  std::vector<unsigned> wantWords;
  std::vector<float> wantScaled;
  for (unsigned x : in) {
    std::uint64_t m = mixers[x % 4] ^ x;
    wantWords.push_back(unsigned(m));
    wantWords.push_back(unsigned(m >> 32));
    wantScaled.push_back(float(scales[x % 4] * double(x)));
  }
  EXPECT_EQ(fromBytes<unsigned>(rig.bytes(out)), wantWords);
  EXPECT_EQ(fromBytes<float>(rig.bytes(scaled)), wantScaled);
}

} // namespace
