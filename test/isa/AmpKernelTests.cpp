// The AMP pass kernels' host vector code against the scalar definitions it must match.
#include "interp/AmpKernel.hpp"
#include "isa/Half.hpp"
#include "isa/Isa.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace {

using namespace poplar;

// An f16 pass of one input and one output channel with coefficient 1 writes each input as the
// float it is: every half bit pattern, through the kernel's own conversion (interleaved groups of
// four and the single positions after them), against isa::halfToFloat.
TEST(AmpKernel, EveryHalfInputIsTheFloatHalfToFloatGives) {
  constexpr uint32_t kHalves = 65536 + 3; // not a multiple of 4: the single-position path too
  interp::AmpPassState a;
  a.inChans = a.outChans = 1;
  a.w[0][0] = 1.0f;
  a.inStride = 2;
  a.outStride = 4;
  std::vector<uint16_t> in(kHalves);
  for (uint32_t i = 0; i < kHalves; ++i)
    in[i] = uint16_t(i);
  std::vector<float> out(kHalves, -1.0f);
  interp::ampPositionsF16(a, reinterpret_cast<const uint8_t *>(in.data()),
                          reinterpret_cast<uint8_t *>(out.data()), kHalves, true, false);
  for (uint32_t i = 0; i < kHalves; ++i) {
    const float want = isa::halfToFloat(in[i]);
    uint32_t got, expected;
    std::memcpy(&got, &out[i], 4);
    // 0 + 1 * x: x itself (-0 becomes +0), NaN the canonical NaN.
    expected = want != want ? isa::kCanonicalNaN : isa::floatToBits(0.0f + want);
    ASSERT_EQ(expected, got) << "half 0x" << std::hex << in[i];
  }
}

// An f32 pass adds each product unrounded: (1 + 2^-23)(1 - 2^-23) = 1 - 2^-46 exactly, which a
// rounded product would make 1, so -1 plus it is -2^-46 only through an fma. Every path: groups of
// eight, of four and single positions (13 positions).
TEST(AmpKernel, AnF32PassAddsEachProductUnrounded) {
  constexpr uint32_t kPositions = 13;
  interp::AmpPassState a;
  a.inChans = a.outChans = 1;
  a.w[0][0] = 1.0f + 0x1p-23f;
  a.inStride = a.outStride = 4;
  std::vector<float> in(kPositions, 1.0f - 0x1p-23f), out(kPositions, -1.0f);
  interp::ampPositionsF32(a, reinterpret_cast<const uint8_t *>(in.data()),
                          reinterpret_cast<uint8_t *>(out.data()), kPositions, false);
  for (uint32_t p = 0; p < kPositions; ++p)
    EXPECT_EQ(-0x1p-46f, out[p]) << "position " << p;
}

} // namespace
