// Seeds: the same seed and modifier give the same bits, a different one different bits; a seeded
// call leaves the tiles' state alone; setSeed and the default state are deterministic; the state
// advances between calls; getHwSeeds/setHwSeeds restore it; the generator is xoroshiro128+.
#include "RandHarness.hpp"

#include "Random.hpp"

#include <poplar/Program.hpp>
#include <poprand/HwSeeds.hpp>
#include <poprand/RandomGen.hpp>

#include <gtest/gtest.h>

#include <cstdint>

namespace {

using namespace poplar;
using poprand::test::RandHarness;

std::size_t differing(const std::vector<double> &a, const std::vector<double> &b) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    n += a[i] != b[i];
  return n;
}

TEST(PoprandSeed, SameSeedAndModifierGiveIdenticalBits) {
  RandHarness h(4);
  Tensor seed = h.seed("seed", 1, 2);
  Tensor ref = h.reference({2000});
  h.output("a", poprand::uniform(h.graph(), &seed, 7, ref, FLOAT, 0, 1, h.prog()));
  h.output("b", poprand::uniform(h.graph(), &seed, 7, ref, FLOAT, 0, 1, h.prog()));
  h.output("n", poprand::normal(h.graph(), &seed, 7, ref, HALF, 0, 1, h.prog()));
  h.output("m", poprand::normal(h.graph(), &seed, 7, ref, HALF, 0, 1, h.prog()));
  h.run();
  EXPECT_EQ(h.result("a"), h.result("b"));
  EXPECT_EQ(h.result("n"), h.result("m"));
}

TEST(PoprandSeed, DifferentModifierOrSeedGiveDifferentBits) {
  RandHarness h(4);
  Tensor seed = h.seed("seed", 1, 2);
  Tensor swapped = h.seed("swapped", 2, 1);
  Tensor ref = h.reference({2000});
  h.output("a", poprand::uniform(h.graph(), &seed, 7, ref, FLOAT, 0, 1, h.prog()));
  h.output("b", poprand::uniform(h.graph(), &seed, 8, ref, FLOAT, 0, 1, h.prog()));
  h.output("c", poprand::uniform(h.graph(), &swapped, 7, ref, FLOAT, 0, 1, h.prog()));
  h.run();
  // Independent uniforms on a 2^-24 grid are almost never equal.
  EXPECT_GT(differing(h.result("a"), h.result("b")), 1990u);
  EXPECT_GT(differing(h.result("a"), h.result("c")), 1990u);
}

TEST(PoprandSeed, SameValuesInAnotherGraphWithTheSameMapping) {
  std::vector<double> first;
  for (int run = 0; run < 2; ++run) {
    RandHarness h(4);
    // The second graph has other work before, and more of it: only the mapping matters.
    if (run == 1)
      h.output("other",
               poprand::uniform(h.graph(), nullptr, 0, h.reference({64}), FLOAT, 0, 1, h.prog()));
    Tensor seed = h.seed("seed", 21, 22);
    h.output("x", poprand::bernoulli(h.graph(), &seed, 3, h.reference({3000}), INT, 0.5, h.prog()));
    h.run();
    if (run == 0)
      first = h.result("x");
    else
      EXPECT_EQ(h.result("x"), first);
  }
}

TEST(PoprandSeed, ValuesDependOnTheMapping) {
  RandHarness h(4);
  Tensor seed = h.seed("seed", 1, 2);
  Tensor spread = h.reference({2000});
  Tensor oneTile = h.graph().addVariable(FLOAT, {2000}, "oneTile");
  h.graph().setTileMapping(oneTile, 0);
  h.output("a", poprand::uniform(h.graph(), &seed, 0, spread, FLOAT, 0, 1, h.prog()));
  h.output("b", poprand::uniform(h.graph(), &seed, 0, oneTile, FLOAT, 0, 1, h.prog()));
  h.run();
  EXPECT_GT(differing(h.result("a"), h.result("b")), 1000u);
}

TEST(PoprandSeed, UnseededCallsAdvanceTheState) {
  RandHarness h(4);
  Tensor ref = h.reference({2000});
  h.output("a", poprand::uniform(h.graph(), nullptr, 0, ref, FLOAT, 0, 1, h.prog()));
  h.output("b", poprand::uniform(h.graph(), nullptr, 0, ref, FLOAT, 0, 1, h.prog()));
  h.run();
  EXPECT_GT(differing(h.result("a"), h.result("b")), 1990u);
}

/// Values of two unseeded draws after setSeed(1, 2, modifier 5), with `between` added after it.
std::vector<double> afterSetSeed(const std::function<void(RandHarness &)> &between) {
  RandHarness h(4);
  Tensor master = h.seed("master", 1, 2);
  poprand::setSeed(h.graph(), master, 5, h.prog());
  between(h);
  Tensor ref = h.reference({1000});
  h.output("x", poprand::uniform(h.graph(), nullptr, 0, ref, FLOAT, 0, 1, h.prog()));
  h.run();
  return h.result("x");
}

TEST(PoprandSeed, SetSeedIsDeterministicAndSeededCallsLeaveTheStateAlone) {
  auto plain = afterSetSeed([](RandHarness &) {});
  auto again = afterSetSeed([](RandHarness &) {});
  EXPECT_EQ(plain, again);
  auto withSeededCall = afterSetSeed([](RandHarness &h) {
    Tensor seed = h.seed("other", 9, 9);
    h.output("seeded",
             poprand::normal(h.graph(), &seed, 0, h.reference({1000}), FLOAT, 0, 1, h.prog()));
  });
  EXPECT_EQ(plain, withSeededCall);
  auto withUnseededCall = afterSetSeed([](RandHarness &h) {
    h.output("unseeded",
             poprand::normal(h.graph(), nullptr, 0, h.reference({1000}), FLOAT, 0, 1, h.prog()));
  });
  EXPECT_GT(differing(plain, withUnseededCall), 990u);
}

TEST(PoprandSeed, SetSeedModifierChangesTheStreams) {
  std::vector<double> results[2];
  for (unsigned modifier = 0; modifier < 2; ++modifier) {
    RandHarness h(2);
    poprand::setSeed(h.graph(), h.seed("master", 1, 2), modifier, h.prog());
    h.output("x",
             poprand::uniform(h.graph(), nullptr, 0, h.reference({500}), FLOAT, 0, 1, h.prog()));
    h.run();
    results[modifier] = h.result("x");
  }
  EXPECT_GT(differing(results[0], results[1]), 490u);
}

TEST(PoprandSeed, HwSeedsSaveAndRestoreTheState) {
  RandHarness h(4);
  Tensor ref = h.reference({1000});
  Tensor saved = poprand::getHwSeeds(h.graph(), h.prog());
  EXPECT_EQ(saved.elementType(), UNSIGNED_INT);
  EXPECT_EQ(saved.shape(), (std::vector<std::size_t>{4, 6, 4}));
  h.output("a", poprand::uniform(h.graph(), nullptr, 0, ref, FLOAT, 0, 1, h.prog()));
  poprand::setHwSeeds(h.graph(), saved, h.prog());
  h.output("b", poprand::uniform(h.graph(), nullptr, 0, ref, FLOAT, 0, 1, h.prog()));
  h.run();
  EXPECT_EQ(h.result("a"), h.result("b"));
}

TEST(PoprandSeed, VirtualGraphsDrawFromTheirOwnTiles) {
  RandHarness h(4);
  Graph low = h.graph().createVirtualGraph(0, 2), high = h.graph().createVirtualGraph(2, 4);
  Tensor a = low.addVariable(FLOAT, {400}, "a"), b = high.addVariable(FLOAT, {400}, "b");
  low.setTileMapping(a, 1);
  high.setTileMapping(b, 1);
  EXPECT_EQ(poprand::getHwSeeds(low, h.prog()).dim(0), 2u);
  Tensor x = poprand::uniform(low, nullptr, 0, a, FLOAT, 0, 1, h.prog());
  Tensor y = poprand::uniform(high, nullptr, 0, b, FLOAT, 0, 1, h.prog());
  EXPECT_EQ(h.graph().getTileMapping(y)[3].size(), 1u);
  h.output("x", x);
  h.output("y", y);
  h.run();
  // Physical tiles 1 and 3 have their own streams.
  EXPECT_GT(differing(h.result("x"), h.result("y")), 390u);
}

TEST(PoprandSeed, GeneratorIsXoroshiro128PlusBitForBit) {
  // One tile, 24 ints over the whole range: each worker gets 4 (whole 8-byte grains), the raw
  // low and high words of its first two 64-bit outputs.
  RandHarness h(1);
  std::uint32_t s0 = 0x12345678, s1 = 0x9abcdef0, modifier = 0xfeedbeef;
  Tensor seed = h.seed("seed", s0, s1);
  Tensor out = poprand::uniform(h.graph(), &seed, modifier, h.reference({24}), INT, -2147483648.0,
                                2147483647.0, h.prog());
  h.output("out", out);
  h.run();
  auto xs = h.result("out");
  for (unsigned wid = 0; wid < 6; ++wid) {
    auto g = popsdk::reference::seededGenerator(s0, s1, modifier, 0, wid);
    for (unsigned step = 0; step < 2; ++step) {
      std::uint64_t r = g.next();
      for (unsigned half = 0; half < 2; ++half) {
        std::uint32_t expected = std::uint32_t(r >> (32 * half));
        std::uint32_t actual =
            std::uint32_t(std::int64_t(xs[wid * 4 + step * 2 + half]) + 2147483648LL);
        EXPECT_EQ(actual, expected) << "worker " << wid << " step " << step << " word " << half;
      }
    }
  }
}

} // namespace
