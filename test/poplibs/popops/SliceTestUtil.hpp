// Helpers shared by the slicing, encoding and sorting tests: error expectations and host index
// lists as the double values OpHarness writes.
#pragma once

#include "HostData.hpp"

#include <gtest/gtest.h>

#include "ExpectThrows.hpp"
#include <cstdint>

#include <functional>
#include <string>
#include <vector>

namespace popsdk::test {

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

/// The number of elements of a tensor of `shape`.
inline std::size_t elementCount(const std::vector<std::size_t> &shape) {
  std::size_t n = 1;
  for (auto d : shape)
    n *= d;
  return n;
}

inline std::vector<double> asDoubles(const std::vector<std::int64_t> &v) {
  return std::vector<double>(v.begin(), v.end());
}

} // namespace popsdk::test
