// One byte run of a copy, with short runs moved inline: programs that gather operands from
// tensors spread over many tiles copy millions of one-element runs a step, where a call to
// memcpy costs more than the move itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace poplar::detail {

/// n bytes, sizeof(W) <= n <= 2 * sizeof(W), as two words that overlap when n is not
/// 2 * sizeof(W): both loads before either store.
template <class W> inline void copyTwoWords(std::uint8_t *d, const std::uint8_t *s, std::size_t n) {
  W a, b;
  std::memcpy(&a, s, sizeof(W));
  std::memcpy(&b, s + n - sizeof(W), sizeof(W));
  std::memcpy(d, &a, sizeof(W));
  std::memcpy(d + n - sizeof(W), &b, sizeof(W));
}

/// Copies n bytes from s to d (the ranges do not overlap); runs of up to 16 bytes inline.
inline void copyBytes(std::uint8_t *d, const std::uint8_t *s, std::size_t n) {
  if (n > 16) {
    std::memcpy(d, s, n);
  } else if (n >= 8) {
    copyTwoWords<std::uint64_t>(d, s, n);
  } else if (n >= 4) {
    copyTwoWords<std::uint32_t>(d, s, n);
  } else if (n > 0) {
    const std::uint8_t a = s[0], b = s[n / 2], c = s[n - 1];
    d[0] = a;
    d[n / 2] = b;
    d[n - 1] = c;
  }
}

} // namespace poplar::detail
