// The AMP pass loops over field positions, cloned for AVX-512, AVX2 and the baseline (the loader
// picks the widest the host has). Contraction into fma stays off (CMakeLists), so every clone
// sums in the same order as the reference: per output, input channel by input channel.
#include "interp/AmpKernel.hpp"

#include "isa/Half.hpp"
#include "isa/Isa.hpp"
#include "support/CopyBytes.hpp"

#include <cstring>

namespace poplar::interp {

namespace {

// Run-time lengths of at most a unit's bytes, moved inline: a call into libc's memmove for each
// cost more than the arithmetic when a pass covers a few positions (a batch-8 matmul).
using popsdk::support::copyBytes;

// A unit's outputs as one vector: 8 f32 lanes, or 16 for f16 data.
typedef float Lanes8 __attribute__((vector_size(32)));
typedef float Lanes16 __attribute__((vector_size(64)));

void halvesToFloats(const uint8_t *src, uint32_t n, float *dst) {
  uint16_t h[AmpPassState::kMaxChans];
  copyBytes<32>(reinterpret_cast<uint8_t *>(h), src, 2 * n);
  for (uint32_t i = 0; i < n; ++i)
    dst[i] = isa::halfToFloat(h[i]);
}

// kPositions positions of an f32 pass from position p: their sums are independent, so
// interleaving them hides the latency of each one's chain of adds (whose order, input channel by
// input channel, is the reference's and stays so).
template <uint32_t kPositions>
__attribute__((always_inline)) inline void ampF32Positions(const AmpPassState &a, const uint8_t *in,
                                                           uint8_t *out, uint32_t p, bool zero) {
  // A whole unit's outputs move as one vector; a narrower pass's through a buffer.
  const bool wholeUnit = a.outChans == 8;
  const uint32_t outBytes = 4 * a.outChans;
  Lanes8 acc[kPositions];
  for (uint32_t k = 0; k < kPositions; ++k) {
    const uint8_t *y = out + std::size_t(p + k) * a.outStride;
    acc[k] = Lanes8{}; // one register each (an initialiser of the array is a `rep stos`)
    if (zero)
      continue;
    if (wholeUnit)
      std::memcpy(&acc[k], y, sizeof(Lanes8));
    else
      copyBytes<32>(reinterpret_cast<uint8_t *>(&acc[k]), y, outBytes);
  }
  for (uint32_t i = 0; i < a.inChans; ++i) {
    Lanes8 wi; // a coefficient row, read where the load left it
    std::memcpy(&wi, a.w[i], sizeof wi);
    for (uint32_t k = 0; k < kPositions; ++k) {
      float xi; // read where it lies: copying a position's inputs first costs more
      std::memcpy(&xi, in + std::size_t(p + k) * a.inStride + 4 * i, 4);
      acc[k] += wi * xi;
    }
  }
  const Lanes8 nan = Lanes8{} + isa::bitsToFloat(isa::kCanonicalNaN);
  for (uint32_t k = 0; k < kPositions; ++k) {
    const Lanes8 result = acc[k] != acc[k] ? nan : acc[k]; // the canonical NaN, as every f32
    uint8_t *y = out + std::size_t(p + k) * a.outStride;
    if (wholeUnit)
      std::memcpy(y, &result, sizeof result);
    else
      copyBytes<32>(y, reinterpret_cast<const uint8_t *>(&result), outBytes);
  }
}

} // namespace

__attribute__((target_clones("avx512f", "avx2", "default"))) void
ampPositionsF32(const AmpPassState &a, const uint8_t *in, uint8_t *out, uint32_t n, bool zero) {
  uint32_t p = 0;
  // Interleaved only where position by position gives the same: no output overlaps another
  // position's output or any input.
  const std::size_t inSpan = std::size_t(n - 1) * a.inStride + 4 * a.inChans,
                    outSpan = std::size_t(n - 1) * a.outStride + 4 * a.outChans;
  const bool independent =
      a.outStride >= 4 * a.outChans && (out >= in + inSpan || in >= out + outSpan);
  if (independent)
    for (; p + 4 <= n; p += 4)
      ampF32Positions<4>(a, in, out, p, zero);
  for (; p < n; ++p)
    ampF32Positions<1>(a, in, out, p, zero);
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void
ampPositionsF16(const AmpPassState &a, const uint8_t *in, uint8_t *out, uint32_t n, bool zero,
                bool halfPartials) {
  // The coefficients as vectors, one per input channel, in the clone's registers.
  Lanes16 w[AmpPassState::kMaxChans];
  for (uint32_t i = 0; i < a.inChans; ++i)
    std::memcpy(&w[i], a.w[i], sizeof(Lanes16));
  const Lanes16 nan = Lanes16{} + isa::bitsToFloat(isa::kCanonicalNaN);
  for (uint32_t p = 0; p < n; ++p) {
    float xs[AmpPassState::kMaxChans];
    halvesToFloats(in + std::size_t(p) * a.inStride, a.inChans, xs);
    uint8_t *y = out + std::size_t(p) * a.outStride;
    float init[16] = {};
    if (!zero) {
      if (halfPartials)
        halvesToFloats(y, a.outChans, init);
      else
        copyBytes<64>(reinterpret_cast<uint8_t *>(init), y, 4 * a.outChans);
    }
    Lanes16 acc;
    std::memcpy(&acc, init, sizeof acc);
    for (uint32_t i = 0; i < a.inChans; ++i)
      acc += w[i] * xs[i];
    acc = acc != acc ? nan : acc;
    float result[16];
    std::memcpy(result, &acc, sizeof acc);
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

} // namespace poplar::interp
