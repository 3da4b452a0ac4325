// The f32 AMP pass loop, cloned for AVX-512, AVX2 and the baseline (the loader picks the widest
// the host has). Contraction into fma stays off (CMakeLists), so every clone sums the same way.
#include "interp/AmpKernel.hpp"

#include "isa/Half.hpp"
#include "isa/Isa.hpp"

#include <cstring>

namespace poplar::interp {

namespace {
// Eight f32 lanes, the f32 unit's outputs: one AVX register, two SSE ones.
typedef float Lanes __attribute__((vector_size(32)));
} // namespace

__attribute__((target_clones("avx512f", "avx2", "default"))) void
ampPositionsF32(const AmpPassState &a, const uint8_t *in, uint8_t *out, uint32_t n, bool zero) {
  Lanes w[AmpPassState::kMaxChans];
  for (uint32_t i = 0; i < a.inChans; ++i)
    std::memcpy(&w[i], a.w[i], sizeof(Lanes));
  const Lanes nan = Lanes{} + isa::bitsToFloat(isa::kCanonicalNaN);
  for (uint32_t p = 0; p < n; ++p) {
    float xs[AmpPassState::kMaxChans];
    std::memcpy(xs, in + std::size_t(p) * a.inStride, 4 * a.inChans);
    uint8_t *y = out + std::size_t(p) * a.outStride;
    Lanes acc = {};
    if (!zero)
      std::memcpy(&acc, y, 4 * a.outChans);
    for (uint32_t i = 0; i < a.inChans; ++i)
      acc += w[i] * xs[i];
    acc = acc != acc ? nan : acc; // canonical NaN, as every f32 result
    std::memcpy(y, &acc, 4 * a.outChans);
  }
}

} // namespace poplar::interp
