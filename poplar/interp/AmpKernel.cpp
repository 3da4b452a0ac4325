// The AMP pass loops over field positions, cloned for AVX-512, AVX2 and the baseline (the loader
// picks the widest the host has). Contraction into fma stays off (CMakeLists), so every clone
// sums in the same order as the reference: per output, input channel by input channel.
#include "interp/AmpKernel.hpp"

#include "isa/Half.hpp"
#include "isa/Isa.hpp"

#include <cstring>

namespace poplar::interp {

namespace {

// A unit's outputs as one vector: 8 f32 lanes, or 16 for f16 data.
typedef float Lanes8 __attribute__((vector_size(32)));
typedef float Lanes16 __attribute__((vector_size(64)));

// The coefficients as vectors, one per input channel (loaded inside each clone, so they are
// in the clone's registers).
#define AMP_LOAD_ROWS(Lanes, a, w)                                                                 \
  Lanes w[AmpPassState::kMaxChans];                                                                \
  for (uint32_t i = 0; i < (a).inChans; ++i)                                                       \
    std::memcpy(&w[i], (a).w[i], sizeof(Lanes));

void halvesToFloats(const uint8_t *src, uint32_t n, float *dst) {
  uint16_t h[AmpPassState::kMaxChans];
  std::memcpy(h, src, 2 * n);
  for (uint32_t i = 0; i < n; ++i)
    dst[i] = isa::halfToFloat(h[i]);
}

} // namespace

__attribute__((target_clones("avx512f", "avx2", "default"))) void
ampPositionsF32(const AmpPassState &a, const uint8_t *in, uint8_t *out, uint32_t n, bool zero) {
  AMP_LOAD_ROWS(Lanes8, a, w)
  const Lanes8 nan = Lanes8{} + isa::bitsToFloat(isa::kCanonicalNaN);
  for (uint32_t p = 0; p < n; ++p) {
    float xs[AmpPassState::kMaxChans];
    std::memcpy(xs, in + std::size_t(p) * a.inStride, 4 * a.inChans);
    uint8_t *y = out + std::size_t(p) * a.outStride;
    Lanes8 acc = {};
    if (!zero)
      std::memcpy(&acc, y, 4 * a.outChans);
    for (uint32_t i = 0; i < a.inChans; ++i)
      acc += w[i] * xs[i];
    acc = acc != acc ? nan : acc; // the canonical NaN, as every f32 result
    std::memcpy(y, &acc, 4 * a.outChans);
  }
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void
ampPositionsF16(const AmpPassState &a, const uint8_t *in, uint8_t *out, uint32_t n, bool zero,
                bool halfPartials) {
  AMP_LOAD_ROWS(Lanes16, a, w)
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
        std::memcpy(init, y, 4 * a.outChans);
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
      std::memcpy(y, h, 2 * a.outChans);
    } else {
      std::memcpy(y, result, 4 * a.outChans);
    }
  }
}

#undef AMP_LOAD_ROWS

} // namespace poplar::interp
