// Host reference for poprand's generator: xoroshiro128+ in 64-bit arithmetic, seeded as the
// SetSeed vertex seeds one worker of one tile, for bit-exact checks of the device's 32-bit form.
#pragma once

#include <cstdint>

namespace popsdk::reference {

class Xoroshiro128Plus {
public:
  Xoroshiro128Plus(std::uint64_t s0, std::uint64_t s1) : s0_(s0), s1_(s1) {}
  std::uint64_t next();

private:
  std::uint64_t s0_, s1_;
};

/// The generator of worker `wid` on `tile` after SetSeed with `seed` and `modifier`.
Xoroshiro128Plus seededGenerator(std::uint32_t seed0, std::uint32_t seed1, std::uint32_t modifier,
                                 unsigned tile, unsigned wid);

} // namespace popsdk::reference
