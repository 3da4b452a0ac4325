// Host reference for poprand's generator (see Random.hpp); written from the algorithm's
// definition, independently of the device code's 32-bit word pairs.
#include "Random.hpp"

namespace popsdk::reference {

namespace {

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

std::uint32_t fmix32(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

} // namespace

std::uint64_t Xoroshiro128Plus::next() {
  std::uint64_t result = s0_ + s1_;
  std::uint64_t t = s1_ ^ s0_;
  s0_ = rotl(s0_, 55) ^ t ^ (t << 14);
  s1_ = rotl(t, 36);
  return result;
}

Xoroshiro128Plus seededGenerator(std::uint32_t seed0, std::uint32_t seed1, std::uint32_t modifier,
                                 unsigned tile, unsigned wid) {
  std::uint32_t stream = tile * 6 + wid;
  std::uint32_t w[4];
  for (std::uint32_t i = 0; i < 4; ++i)
    w[i] =
        fmix32(fmix32(fmix32(fmix32(seed0 + 0x9e3779b9u * (i + 1)) ^ seed1) ^ modifier) ^ stream);
  if ((w[0] | w[1] | w[2] | w[3]) == 0)
    w[0] = 1;
  // Word order: s0 low, s0 high, s1 low, s1 high.
  Xoroshiro128Plus g(w[0] | std::uint64_t(w[1]) << 32, w[2] | std::uint64_t(w[3]) << 32);
  for (int i = 0; i < 4; ++i)
    g.next();
  return g;
}

} // namespace popsdk::reference
