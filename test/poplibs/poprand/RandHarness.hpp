// Shared by the poprand tests: an OpHarness with poprand's codelets, reference tensors mapped
// linearly over its tiles, and sample statistics.
#pragma once

#include "OpHarness.hpp"

#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace poprand::test {

class RandHarness : public popsdk::test::OpHarness {
public:
  explicit RandHarness(unsigned tiles = 4);
  explicit RandHarness(poplar::Device device);
  /// A variable of `shape` mapped linearly over the tiles (never written: only its shape and
  /// mapping matter to poprand).
  poplar::Tensor reference(const std::vector<std::size_t> &shape,
                           poplar::Type type = poplar::FLOAT);
  /// A 2-element UNSIGNED_INT seed tensor holding {s0, s1} when the program runs.
  poplar::Tensor seed(const std::string &name, std::uint32_t s0, std::uint32_t s1);
};

struct Stats {
  double mean, variance, min, max;
};
Stats stats(const std::vector<double> &xs);

/// The fraction of xs equal to v.
double fraction(const std::vector<double> &xs, double v);

} // namespace poprand::test
