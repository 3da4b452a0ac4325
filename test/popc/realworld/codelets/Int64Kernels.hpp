// 64-bit integer kernels shared by the Int64 codelet and its host test (the differential test:
// the same source compiled by popc for the tile and by the host compiler).
#pragma once

#include <algorithm>
#include <cstdint>

namespace int64k {

inline std::uint64_t rotl(std::uint64_t x, unsigned k) { return (x << k) | (x >> (64 - k)); }

/// poprand's xoroshiro128+ step (poplibs.md 2.7): s0 + s1, then the state update.
inline std::uint64_t next(std::uint64_t s[2]) {
  std::uint64_t s0 = s[0], s1 = s[1];
  std::uint64_t result = s0 + s1;
  s1 ^= s0;
  s[0] = rotl(s0, 55) ^ s1 ^ (s1 << 14);
  s[1] = rotl(s1, 36);
  return result;
}

/// Draws n numbers from the seed words {s0 lo, s0 hi, s1 lo, s1 hi} into 2n words.
inline void draw(const unsigned *seed, unsigned *out, unsigned n) {
  std::uint64_t s[2] = {seed[0] | std::uint64_t(seed[1]) << 32, seed[2] | std::uint64_t(seed[3])
                                                                              << 32};
  for (unsigned i = 0; i < n; ++i) {
    std::uint64_t r = next(s);
    out[2 * i] = unsigned(r);
    out[2 * i + 1] = unsigned(r >> 32);
  }
}

/// sum, sum of squares, min, max, sum of |x|, product of x | 1. The sums and the product are
/// taken mod 2^64 (in unsigned arithmetic: the inputs are large enough that the squares wrap, and
/// a signed overflow would be undefined behaviour on the host, as UBSan reported).
template <typename T> void accumulate(const T *in, unsigned n, long long *out) {
  std::int64_t lo = INT64_MAX, hi = INT64_MIN;
  std::uint64_t sum = 0, squares = 0, mags = 0, product = 1;
  for (unsigned i = 0; i < n; ++i) {
    std::int64_t v = in[i];
    std::uint64_t u = std::uint64_t(v);
    sum += u;
    squares += u * u;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    mags += v < 0 ? 0 - u : u;
    product *= u | 1;
  }
  out[0] = (long long)sum;
  out[1] = (long long)squares;
  out[2] = lo;
  out[3] = hi;
  out[4] = (long long)mags;
  out[5] = (long long)product;
}

/// Per element: x << n, x >> n (arithmetic), x >> n (logical), then compare bits against the
/// next element and a rotate by n.
inline void shifts(const long long *in, const unsigned *amounts, unsigned size, long long *out) {
  for (unsigned i = 0; i < size; ++i) {
    long long x = in[i];
    unsigned n = amounts[i] & 63;
    unsigned long long ux = (unsigned long long)x;
    out[5 * i] = (long long)(ux << n);
    out[5 * i + 1] = x >> n;
    out[5 * i + 2] = (long long)(ux >> n);
    long long y = in[(i + 1) % size];
    unsigned long long uy = (unsigned long long)y;
    out[5 * i + 3] = (long long)((x < y) | (x <= y) << 1 | (ux < uy) << 2 | (x == y) << 3 |
                                 (x > y) << 4 | (ux >= uy) << 5);
    out[5 * i + 4] = (long long)(n ? (ux << n) | (ux >> (64 - n)) : ux);
  }
}

/// Quotient and remainder, signed and unsigned, and the bit counts of 64-bit values.
inline void divide(const long long *num, const long long *den, unsigned n, long long *out) {
  for (unsigned i = 0; i < n; ++i) {
    long long a = num[i], b = den[i];
    unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b;
    out[6 * i] = a / b;
    out[6 * i + 1] = a % b;
    out[6 * i + 2] = (long long)(ua / ub);
    out[6 * i + 3] = (long long)(ua % ub);
    out[6 * i + 4] = __builtin_clzll(ua | 1) + 64 * __builtin_ctzll(ub | (1ull << 63));
    out[6 * i + 5] = __builtin_popcountll(ua ^ ub);
  }
}

/// Conversions between 64-bit integers and float (popops Cast with long long), both ways.
inline void convert(const long long *in, const float *floats, unsigned n, float *toFloat,
                    long long *toInt) {
  for (unsigned i = 0; i < n; ++i) {
    toFloat[2 * i] = float(in[i]);
    toFloat[2 * i + 1] = float((unsigned long long)in[i]);
    toInt[2 * i] = (long long)floats[i];
    toInt[2 * i + 1] = (long long)(unsigned long long)(floats[i] < 0 ? -floats[i] : floats[i]);
  }
}

/// Bit fields wider than a word (a signed 40-bit and an unsigned 23-bit field of a 64-bit word)
/// and a switch on a masked 64-bit value: LLVM computes these on odd-width integers (i40, i63)
/// that popc keeps zero-extended in a register pair.
struct Packed {
  long long wide : 40;
  unsigned long long narrow : 23;
  unsigned long long flag : 1;
};

inline void bitfields(const long long *in, unsigned n, long long *out) {
  for (unsigned i = 0; i < n; ++i) {
    Packed p;
    p.wide = in[i];
    p.narrow = (unsigned long long)in[i] >> 17;
    p.flag = in[i] < 0;
    long long sum = p.wide + (long long)p.narrow;
    out[4 * i] = p.wide;
    out[4 * i + 1] = sum;
    out[4 * i + 2] = p.wide < -1000 ? 1 : p.wide > 1000 ? 2 : 3;
    switch ((unsigned long long)in[i] & 0x7fffffffffffffffull) {
    case 0:
      out[4 * i + 3] = 10;
      break;
    case 0x7ff0000000000000ull:
      out[4 * i + 3] = 20;
      break;
    case 12345:
      out[4 * i + 3] = 30;
      break;
    default:
      out[4 * i + 3] = p.flag ? 40 : 50;
    }
  }
}

} // namespace int64k
