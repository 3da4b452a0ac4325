// Helpers shared by the slicing, encoding and sorting tests: error expectations and host index
// lists as the double values OpHarness writes.
#pragma once

#include "HostData.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace popsdk::test {

/// f() throws E whose message contains each of `parts`.
template <class E>
void expectThrowsWith(const std::function<void()> &f, const std::vector<std::string> &parts) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one naming " << (parts.empty() ? "" : parts[0]);
  } catch (const E &e) {
    for (const auto &p : parts)
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos)
          << "'" << p << "' not in: " << e.what();
  }
}

/// hostData over [lo, hi], moved to [0, hi - lo] for UNSIGNED_INT and to {0, 1} for BOOL, so
/// that every value is one the type holds.
inline std::vector<double> testValues(poplar::Type type, std::size_t n, double lo, double hi,
                                      unsigned seed = 1) {
  if (type == poplar::BOOL)
    return hostData(type, n, 0, 1, seed);
  if (type == poplar::UNSIGNED_INT)
    return hostData(type, n, 0, hi - lo, seed);
  return hostData(type, n, lo, hi, seed);
}

inline std::vector<double> asDoubles(const std::vector<std::int64_t> &v) {
  return std::vector<double>(v.begin(), v.end());
}

} // namespace popsdk::test
