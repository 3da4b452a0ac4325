// One byte run of a copy, with short runs moved inline: programs that gather operands from
// tensors spread over many tiles copy millions of one-element runs a step, and an AMP pass over a
// few positions moves a few dozen bytes a position, where a call to memcpy costs more than the
// move itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace popsdk::support {

/// n bytes, sizeof(W) <= n <= 2 * sizeof(W), as two words that overlap when n is not
/// 2 * sizeof(W): both loads before either store.
template <class W> inline void copyTwoWords(std::uint8_t *d, const std::uint8_t *s, std::size_t n) {
  W a, b;
  std::memcpy(&a, s, sizeof(W));
  std::memcpy(&b, s + n - sizeof(W), sizeof(W));
  std::memcpy(d, &a, sizeof(W));
  std::memcpy(d + n - sizeof(W), &b, sizeof(W));
}

/// Copies n bytes from s to d (the ranges do not overlap); runs of up to 64 bytes inline. A
/// caller that knows n <= kMax says so, and the branches for longer runs are not compiled (nor
/// warned about as reaching past a small buffer).
template <std::size_t kMax = SIZE_MAX>
inline void copyBytes(std::uint8_t *d, const std::uint8_t *s, std::size_t n) {
  typedef char Bytes16 __attribute__((vector_size(16)));
  typedef char Bytes32 __attribute__((vector_size(32)));
  if constexpr (kMax > 64)
    if (n > 64) {
      std::memcpy(d, s, n);
      return;
    }
  if constexpr (kMax > 32)
    if (n > 32) {
      copyTwoWords<Bytes32>(d, s, n);
      return;
    }
  if constexpr (kMax > 16)
    if (n > 16) {
      copyTwoWords<Bytes16>(d, s, n);
      return;
    }
  if (n >= 8) {
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

} // namespace popsdk::support
