// The executor's copy of one byte run (support/CopyBytes.hpp): every length up to past the inline
// sizes, at every alignment, moves exactly the run's bytes and touches nothing around them.
#include "support/CopyBytes.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

TEST(CopyBytes, EveryShortLengthAndAlignmentMovesExactlyTheRun) {
  constexpr std::size_t kPad = 24;
  for (std::size_t n = 0; n <= 80; ++n)
    for (std::size_t srcAt = 0; srcAt < 8; ++srcAt)
      for (std::size_t dstAt = 0; dstAt < 8; ++dstAt) {
        std::vector<std::uint8_t> src(n + 2 * kPad), dst(n + 2 * kPad, 0xee);
        for (std::size_t i = 0; i < src.size(); ++i)
          src[i] = std::uint8_t(i * 37 + n);
        popsdk::support::copyBytes(dst.data() + kPad + dstAt, src.data() + kPad + srcAt, n);
        for (std::size_t i = 0; i < dst.size(); ++i) {
          bool inRun = i >= kPad + dstAt && i < kPad + dstAt + n;
          std::uint8_t want = inRun ? src[i - dstAt + srcAt] : 0xee;
          ASSERT_EQ(dst[i], want) << "n " << n << " src +" << srcAt << " dst +" << dstAt << " byte "
                                  << i;
        }
      }
}

} // namespace
