// The AMP pass loops over field positions, cloned for x86-64-v4 (AVX-512), v3 (AVX2) and
// the baseline (the loader picks the widest the host has). Every clone sums as the reference
// does: per output, input channel by input channel, each product added by an explicit fma
// (contraction stays off, CMakeLists), one vfmadd a vector where the host has FMA.
#include "interp/AmpKernel.hpp"

#include "isa/Half.hpp"
#include "isa/Isa.hpp"
#include "support/CopyBytes.hpp"

#include <algorithm>
#include <cstring>

namespace poplar::interp {

namespace {

// Run-time lengths of at most a unit's bytes, moved inline: a call into libc's memmove for each
// cost more than the arithmetic when a pass covers a few positions (a batch-8 matmul).
using popsdk::support::copyBytes;

#define POPSDK_AMP_CLONES                                                                          \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))

// A unit's outputs as 8-lane vectors: one for f32 data, two for f16 data (GCC compiles wider
// vectors lane by lane in a clone whose registers are 8 lanes wide).
typedef float Lanes8 __attribute__((vector_size(32)));

typedef int32_t Ints8 __attribute__((vector_size(32)));
typedef uint16_t Halves8 __attribute__((vector_size(16)));

/// acc + w * x lane by lane, rounded once: the ISA's AMP adds each product unrounded (an f16
/// product is exact in f32, so there an fma is also what a multiply and an add give). Explicit
/// fmaf calls, not contraction, so that every build gives the same bits (an unoptimised build
/// contracts nothing): GCC makes the 8 one vfmadd in the clones with FMA, and the baseline clone,
/// which runs only on hosts without it, calls fmaf.
__attribute__((always_inline)) inline Lanes8 fmaLanes(Lanes8 acc, Lanes8 w, float x) {
  Lanes8 sum;
#pragma GCC unroll 8
  for (unsigned l = 0; l < 8; ++l)
    sum[l] = __builtin_fmaf(w[l], x, acc[l]);
  return sum;
}

/// 8 halves as floats, exactly as isa::halfToFloat converts each, in vector integer operations
/// (GCC 12 converts a vector of _Float16 element by element, even where F16C could do all 8).
__attribute__((always_inline)) inline void halvesToFloats(Halves8 h, Lanes8 &floats) {
  const Ints8 u = __builtin_convertvector(h, Ints8);
  const Ints8 magnitude = u & 0x7fff, sign = (u & 0x8000) << 16;
  const Ints8 normal = (magnitude << 13) + (112 << 23);
  // Infinity, and NaN with its payload, quieted.
  const Ints8 special = (magnitude << 13) | 0x7f800000 | (((magnitude & 0x3ff) != 0) & 0x400000);
  // A subnormal half is a normal float: its integer significand times 2^-24, exactly.
  const Lanes8 subnormalFloat = __builtin_convertvector(magnitude, Lanes8) * 0x1p-24f;
  Ints8 subnormal;
  std::memcpy(&subnormal, &subnormalFloat, sizeof subnormal);
  const Ints8 bits = sign | (magnitude >= 0x7c00 ? special
                             : magnitude < 0x400 ? subnormal
                                                 : normal);
  std::memcpy(&floats, &bits, sizeof floats);
}

/// n <= 16 halves at src as floats, 8 a vector; lanes from n on are zero.
__attribute__((always_inline)) inline void halvesToFloats(const uint8_t *src, uint32_t n,
                                                          Lanes8 (&floats)[2]) {
  Halves8 h[2];
  h[0] = Halves8{};
  h[1] = Halves8{};
  copyBytes<32>(reinterpret_cast<uint8_t *>(h), src, 2 * n);
  halvesToFloats(h[0], floats[0]);
  halvesToFloats(h[1], floats[1]);
}

/// Whether interleaving positions gives what running them one by one gives: no position's output
/// overlaps another's or any input (elements of inSize and outSize bytes).
bool independentPositions(const AmpPassState &a, const uint8_t *in, const uint8_t *out, uint32_t n,
                          uint32_t inSize, uint32_t outSize) {
  const std::size_t inSpan = std::size_t(n - 1) * a.inStride + inSize * a.inChans,
                    outSpan = std::size_t(n - 1) * a.outStride + outSize * a.outChans;
  return a.outStride >= outSize * a.outChans && (out >= in + inSpan || in >= out + outSpan);
}

/// A position's inputs and outputs are a line or two each, a stride apart, and are the pass's
/// cache misses: the next group's (`count` from `from`) are fetched while this group sums.
__attribute__((always_inline)) inline void prefetchPositions(const AmpPassState &a,
                                                             const uint8_t *in, uint8_t *out,
                                                             uint32_t from, uint32_t count,
                                                             uint32_t inSize) {
  const uint8_t *x = in + std::size_t(from) * a.inStride;
  const uint8_t *y = out + std::size_t(from) * a.outStride;
  for (uint32_t k = 0; k < count; ++k, x += a.inStride, y += a.outStride) {
    __builtin_prefetch(x);
    __builtin_prefetch(x + inSize * a.inChans - 1);
    __builtin_prefetch(y, 1);
  }
}

// kPositions positions of an f32 pass from position p: their sums are independent, so
// interleaving them hides the latency of each one's chain of adds (whose order, input channel by
// input channel, is the reference's and stays so). Whether the outputs start at zero and whether
// they are a whole unit's 8 are template arguments: tested once a pass, not once a group, they
// leave the sums in registers from load to store.
template <uint32_t kPositions, bool kZero, bool kWholeUnit>
__attribute__((always_inline)) inline void ampF32Positions(const AmpPassState &a, const uint8_t *in,
                                                           uint8_t *out, uint32_t p) {
  const std::size_t is = a.inStride, os = a.outStride;
  const uint32_t outBytes = 4 * a.outChans;
  const uint8_t *x = in + p * is;
  uint8_t *y = out + p * os;
  Lanes8 acc[kPositions];
#pragma GCC unroll 8
  for (uint32_t k = 0; k < kPositions; ++k) {
    acc[k] = Lanes8{}; // one register each (an initialiser of the array is a `rep stos`)
    if (kZero)
      continue;
    // A whole unit's outputs move as one vector; a narrower pass's through a buffer.
    if (kWholeUnit)
      std::memcpy(&acc[k], y + k * os, sizeof(Lanes8));
    else
      copyBytes<32>(reinterpret_cast<uint8_t *>(&acc[k]), y + k * os, outBytes);
  }
  for (uint32_t i = 0; i < a.inChans; ++i) {
    Lanes8 wi; // a coefficient row, read where the load left it
    std::memcpy(&wi, a.w[i], sizeof wi);
#pragma GCC unroll 8
    for (uint32_t k = 0; k < kPositions; ++k) {
      float xi; // read where it lies: copying a position's inputs first costs more
      std::memcpy(&xi, x + k * is + 4 * i, 4);
      acc[k] = fmaLanes(acc[k], wi, xi);
    }
  }
  const Lanes8 nan = Lanes8{} + isa::bitsToFloat(isa::kCanonicalNaN);
#pragma GCC unroll 8
  for (uint32_t k = 0; k < kPositions; ++k) {
    const Lanes8 result = acc[k] != acc[k] ? nan : acc[k]; // the canonical NaN, as every f32
    if (kWholeUnit)
      std::memcpy(y + k * os, &result, sizeof result);
    else
      copyBytes<32>(y + k * os, reinterpret_cast<const uint8_t *>(&result), outBytes);
  }
}

template <bool kZero, bool kWholeUnit>
__attribute__((always_inline)) inline void ampF32Pass(const AmpPassState &a, const uint8_t *in,
                                                      uint8_t *out, uint32_t n, bool independent) {
  uint32_t p = 0;
  if (independent) {
    // Eight positions share each coefficient row's load; four, then one, finish the pass.
    for (; p + 8 <= n; p += 8) {
      prefetchPositions(a, in, out, p + 8, std::min(8u, n - p - 8), 4);
      ampF32Positions<8, kZero, kWholeUnit>(a, in, out, p);
    }
    for (; p + 4 <= n; p += 4)
      ampF32Positions<4, kZero, kWholeUnit>(a, in, out, p);
  }
  for (; p < n; ++p)
    ampF32Positions<1, kZero, kWholeUnit>(a, in, out, p);
}

// kPositions positions of an f16 pass from position p, interleaved as the f32 pass's are: each
// position's sum runs input channel by input channel in float, as the reference's does.
template <uint32_t kPositions>
__attribute__((always_inline)) inline void
ampF16Positions(const AmpPassState &a, const Lanes8 (*w)[2], const uint8_t *in, uint8_t *out,
                uint32_t p, bool zero, bool halfPartials) {
  // The inputs are read one by one from memory (broadcast): as vectors they would take the
  // registers the sums need.
  float x[kPositions][16];
  Lanes8 acc[kPositions][2];
  for (uint32_t k = 0; k < kPositions; ++k) {
    Lanes8 xk[2];
    halvesToFloats(in + std::size_t(p + k) * a.inStride, a.inChans, xk);
    std::memcpy(x[k], xk, sizeof xk);
    const uint8_t *y = out + std::size_t(p + k) * a.outStride;
    acc[k][0] = acc[k][1] = Lanes8{};
    if (zero)
      continue;
    if (halfPartials)
      halvesToFloats(y, a.outChans, acc[k]);
    else
      copyBytes<64>(reinterpret_cast<uint8_t *>(acc[k]), y, 4 * a.outChans);
  }
  for (uint32_t i = 0; i < a.inChans; ++i)
#pragma GCC unroll 8
    for (uint32_t k = 0; k < kPositions; ++k) {
      acc[k][0] = fmaLanes(acc[k][0], w[i][0], x[k][i]);
      acc[k][1] = fmaLanes(acc[k][1], w[i][1], x[k][i]);
    }
  const Lanes8 nan = Lanes8{} + isa::bitsToFloat(isa::kCanonicalNaN);
  for (uint32_t k = 0; k < kPositions; ++k) {
    float result[16];
    for (unsigned half = 0; half < 2; ++half) {
      const Lanes8 r = acc[k][half] != acc[k][half] ? nan : acc[k][half];
      std::memcpy(result + 8 * half, &r, sizeof r);
    }
    uint8_t *y = out + std::size_t(p + k) * a.outStride;
    if (halfPartials) {
      uint16_t h[16];
      for (uint32_t o = 0; o < a.outChans; ++o)
        h[o] = isa::floatToHalf(result[o]);
      copyBytes<32>(y, reinterpret_cast<const uint8_t *>(h), 2 * a.outChans);
    } else {
      copyBytes<64>(y, reinterpret_cast<const uint8_t *>(result), 4 * a.outChans);
    }
  }
}

} // namespace

POPSDK_AMP_CLONES void ampPositionsF32(const AmpPassState &a, const uint8_t *in, uint8_t *out,
                                       uint32_t n, bool zero) {
  const bool independent = independentPositions(a, in, out, n, 4, 4);
  if (a.outChans == 8)
    zero ? ampF32Pass<true, true>(a, in, out, n, independent)
         : ampF32Pass<false, true>(a, in, out, n, independent);
  else
    zero ? ampF32Pass<true, false>(a, in, out, n, independent)
         : ampF32Pass<false, false>(a, in, out, n, independent);
}

POPSDK_AMP_CLONES void ampPositionsF16(const AmpPassState &a, const uint8_t *in, uint8_t *out,
                                       uint32_t n, bool zero, bool halfPartials) {
  // The coefficients as vectors, two per input channel.
  Lanes8 w[AmpPassState::kMaxChans][2];
  for (uint32_t i = 0; i < a.inChans; ++i)
    std::memcpy(w[i], a.w[i], sizeof w[i]);
  uint32_t p = 0;
  if (independentPositions(a, in, out, n, 2, halfPartials ? 2 : 4))
    for (; p + 4 <= n; p += 4) {
      prefetchPositions(a, in, out, p + 4, std::min(4u, n - p - 4), 2);
      ampF16Positions<4>(a, w, in, out, p, zero, halfPartials);
    }
  for (; p < n; ++p)
    ampF16Positions<1>(a, w, in, out, p, zero, halfPartials);
}

POPSDK_AMP_CLONES void ampLoadRowsF16(AmpPassState &a, const uint8_t *src, uint32_t rowBytes) {
  for (uint32_t i = 0; i < a.inChans; ++i) {
    Lanes8 row[2];
    halvesToFloats(src + std::size_t(i) * rowBytes, a.outChans, row);
    std::memcpy(a.w[i], row, sizeof row);
  }
}

} // namespace poplar::interp
