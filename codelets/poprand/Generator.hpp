// The random generator of poprand's vertices: one xoroshiro128+ per worker per tile (the model
// PopLibs gives of the IPU's generator), with its 64-bit words as pairs of 32-bit halves (popc's
// general i64 lowering takes about twice the instructions); its seeding, and bits-to-value
// conversions.
#pragma once

namespace poprand {
namespace device {

#define POPRAND_INLINE __attribute__((always_inline)) inline

/// Words of generator state per worker: s0 (low, high), s1 (low, high).
constexpr unsigned kStateWords = 4;
/// The seed a tile's generators take when nothing seeded them (setSeed never ran).
constexpr unsigned kDefaultSeed0 = 0x2545f491u, kDefaultSeed1 = 0x9e3779b9u;

struct U64 {
  unsigned lo, hi;
};

POPRAND_INLINE U64 add64(U64 a, U64 b) {
  unsigned lo = a.lo + b.lo;
  return {lo, a.hi + b.hi + (lo < a.lo ? 1u : 0u)};
}
POPRAND_INLINE U64 xor64(U64 a, U64 b) { return {a.lo ^ b.lo, a.hi ^ b.hi}; }

/// x << n, 0 < n < 32.
template <unsigned n> POPRAND_INLINE U64 shl64(U64 x) {
  return {x.lo << n, (x.hi << n) | (x.lo >> (32 - n))};
}
/// x rotated left by n, 0 < n < 64, n != 32: a rotation by 32 swaps the halves.
template <unsigned n> POPRAND_INLINE U64 rotl64(U64 x) {
  if constexpr (n > 32)
    return rotl64<n - 32>(U64{x.hi, x.lo});
  else
    return {(x.lo << n) | (x.hi >> (32 - n)), (x.hi << n) | (x.lo >> (32 - n))};
}

/// xoroshiro128+ (a = 55, b = 14, c = 36): next() returns s0 + s1 and steps the state.
struct Xoroshiro {
  U64 s0, s1;

  POPRAND_INLINE U64 next() {
    U64 result = add64(s0, s1);
    U64 t = xor64(s1, s0);
    s0 = xor64(xor64(rotl64<55>(s0), t), shl64<14>(t));
    s1 = rotl64<36>(t);
    return result;
  }
};

/// MurmurHash3's 32-bit finaliser: a bijection that mixes every input bit into every output bit.
POPRAND_INLINE unsigned fmix32(unsigned h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

/// Seeds the generator of worker `wid` of `tile` from a 64-bit seed and a modifier: each state
/// word hashes seed, modifier and the worker's stream number, so every (tile, worker) gets its
/// own stream and equal inputs give equal streams. The state is never all zero (see Worker), and
/// four warm-up steps follow, as in PopLibs' model.
POPRAND_INLINE void seedState(unsigned *state, unsigned seed0, unsigned seed1, unsigned modifier,
                              unsigned tile, unsigned wid) {
  unsigned stream = tile * 6 + wid;
  unsigned w[kStateWords];
  for (unsigned i = 0; i < kStateWords; ++i) {
    unsigned h = fmix32(seed0 + 0x9e3779b9u * (i + 1));
    h = fmix32(h ^ seed1);
    h = fmix32(h ^ modifier);
    w[i] = fmix32(h ^ stream);
  }
  if ((w[0] | w[1] | w[2] | w[3]) == 0)
    w[0] = 1;
  Xoroshiro g{{w[0], w[1]}, {w[2], w[3]}};
  for (unsigned i = 0; i < 4; ++i)
    g.next();
  state[0] = g.s0.lo;
  state[1] = g.s0.hi;
  state[2] = g.s1.lo;
  state[3] = g.s1.hi;
}

/// A worker's generator, loaded from its words of the tile's state and saved back after use.
/// All-zero words, which xoroshiro never reaches, mean "never seeded": the default seed applies.
class Worker {
public:
  POPRAND_INLINE Worker(unsigned *tileState, unsigned tile, unsigned wid)
      : words_(tileState + wid * kStateWords) {
    if ((words_[0] | words_[1] | words_[2] | words_[3]) == 0)
      seedState(words_, kDefaultSeed0, kDefaultSeed1, 0, tile, wid);
    g_ = Xoroshiro{{words_[0], words_[1]}, {words_[2], words_[3]}};
  }
  POPRAND_INLINE void save() {
    words_[0] = g_.s0.lo;
    words_[1] = g_.s0.hi;
    words_[2] = g_.s1.lo;
    words_[3] = g_.s1.hi;
  }
  /// 32 random bits; a 64-bit step serves two calls.
  POPRAND_INLINE unsigned next32() {
    if (haveSpare_) {
      haveSpare_ = false;
      return spare_;
    }
    U64 r = g_.next();
    spare_ = r.hi;
    haveSpare_ = true;
    return r.lo;
  }
  /// Uniform on [0, 1) in steps of 2^-24 (the top 24 bits of a word: exact in float).
  POPRAND_INLINE float unit() { return float(next32() >> 8) * (1.0f / 16777216.0f); }
  /// The IPU's approximate normal: the sum of twelve 5-bit uniform fields of one 64-bit step
  /// (Irwin-Hall), centred and scaled to mean 0, variance 1. Bounded: |x| < 5.82.
  POPRAND_INLINE float normal() {
    U64 r = g_.next();
    int sum = int(sixFieldSum(r.lo) + sixFieldSum(r.hi));
    // Each field has mean 15.5 and variance 1023 / 12: the sum has mean 186, variance 1023.
    return float(sum - 186) * 0.0312652700f;
  }

private:
  /// The sum of the six 5-bit fields in bits 0..29 of w: pair sums into three 10-bit lanes, then
  /// one multiply adds the lanes into bits 20..29 (no lane carries: each sum is below 1024).
  static POPRAND_INLINE unsigned sixFieldSum(unsigned w) {
    unsigned t = (w & 0x01f07c1fu) + ((w >> 5) & 0x01f07c1fu);
    return ((t * 0x00100401u) >> 20) & 0x3ffu;
  }

  unsigned *words_;
  Xoroshiro g_;
  unsigned spare_ = 0;
  bool haveSpare_ = false;
};

} // namespace device
} // namespace poprand
