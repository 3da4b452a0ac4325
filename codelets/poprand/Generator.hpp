// The random generator of poprand's vertices: one xoroshiro128+ per worker per tile (the model
// PopLibs gives of the IPU's generator), kept as 64-bit words on pairs of 32-bit halves because
// the tile compiler has no 64-bit integers; its seeding, and bits-to-value conversions.
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

/// The shift counts of the 64-bit steps as run-time values, read once through a volatile: with
/// constants the compiler fuses (x << n) | (y >> (32 - n)) into a funnel shift (llvm.fshl), which
/// popc does not lower yet. They then stay in registers.
struct ShiftCounts {
  unsigned l23, r9, l14, r18, l4, r28;
  static POPRAND_INLINE ShiftCounts load() {
    volatile unsigned c[6] = {23, 9, 14, 18, 4, 28};
    return {c[0], c[1], c[2], c[3], c[4], c[5]};
  }
};

/// xoroshiro128+ (a = 55, b = 14, c = 36): next() returns s0 + s1 and steps the state.
struct Xoroshiro {
  U64 s0, s1;

  POPRAND_INLINE U64 next(const ShiftCounts &k) {
    U64 result = add64(s0, s1);
    U64 t = xor64(s1, s0);
    // rotl(s0, 55): swap the halves (32), then rotate left by 23.
    U64 r55 = {(s0.hi << k.l23) | (s0.lo >> k.r9), (s0.lo << k.l23) | (s0.hi >> k.r9)};
    U64 t14 = {t.lo << k.l14, (t.hi << k.l14) | (t.lo >> k.r18)};
    s0 = xor64(xor64(r55, t), t14);
    // rotl(t, 36): swap, then rotate left by 4.
    s1 = {(t.hi << k.l4) | (t.lo >> k.r28), (t.lo << k.l4) | (t.hi >> k.r28)};
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
  ShiftCounts k = ShiftCounts::load();
  for (unsigned i = 0; i < 4; ++i)
    g.next(k);
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
      : words_(tileState + wid * kStateWords), k_(ShiftCounts::load()) {
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
  POPRAND_INLINE U64 next64() { return g_.next(k_); }
  /// 32 random bits; a 64-bit step serves two calls.
  POPRAND_INLINE unsigned next32() {
    if (haveSpare_) {
      haveSpare_ = false;
      return spare_;
    }
    U64 r = g_.next(k_);
    spare_ = r.hi;
    haveSpare_ = true;
    return r.lo;
  }
  /// Uniform on [0, 1) in steps of 2^-24 (the top 24 bits of a word: exact in float).
  POPRAND_INLINE float unit() { return float(next32() >> 8) * (1.0f / 16777216.0f); }
  /// The IPU's approximate normal: the sum of twelve 5-bit uniform fields of one 64-bit step
  /// (Irwin-Hall), centred and scaled to mean 0, variance 1. Bounded: |x| < 5.82.
  POPRAND_INLINE float normal() {
    U64 r = g_.next(k_);
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
  ShiftCounts k_;
  Xoroshiro g_;
  unsigned spare_ = 0;
  bool haveSpare_ = false;
};

} // namespace device
} // namespace poprand
