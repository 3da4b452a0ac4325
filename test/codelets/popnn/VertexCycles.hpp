// The popnn vertex tests' cycle check: a vertex run over growing sizes, its measured cycles (tile
// cycles of a MultiVertex, thread cycles of a Vertex, as PopLibs estimates them) beside popnn's
// estimate, the ratio bounded per family and the table printed (docs/popnn.md quotes it).
#pragma once

#include "VertexTester.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace popnn::test {

struct CycleSample {
  std::size_t n;
  std::uint64_t measured, estimate;
};

/// Expects the measurements to grow from the smallest to the largest size and the ratio
/// measured / estimate at the largest size to lie in [low, high]; prints one line per vertex.
inline void checkCycles(const std::string &vertex, const std::vector<CycleSample> &samples,
                        double low, double high) {
  ASSERT_FALSE(samples.empty());
  const auto &first = samples.front(), &last = samples.back();
  for (const auto &s : samples)
    EXPECT_GT(s.measured, 0u) << vertex << " n=" << s.n << ": no cycles in the profile";
  if (samples.size() > 1) {
    EXPECT_GT(last.measured, first.measured) << vertex << ": cycles do not grow with n";
  }
  double ratio = double(last.measured) / double(last.estimate);
  EXPECT_GE(ratio, low) << vertex << " n=" << last.n << ": measured " << last.measured
                        << ", estimated " << last.estimate;
  EXPECT_LE(ratio, high) << vertex << " n=" << last.n << ": measured " << last.measured
                         << ", estimated " << last.estimate;
  std::printf("[cycles] %-62s n=%-5zu measured %7llu estimate %7llu ratio %.2f\n", vertex.c_str(),
              last.n, (unsigned long long)last.measured, (unsigned long long)last.estimate, ratio);
}

} // namespace popnn::test
