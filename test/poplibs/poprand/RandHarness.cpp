// RandHarness and the sample statistics of the poprand tests.
#include "RandHarness.hpp"

#include <poprand/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <algorithm>
#include <utility>

namespace poprand::test {

using namespace poplar;

RandHarness::RandHarness(unsigned tiles) : OpHarness(tiles) { poprand::addCodelets(graph()); }

RandHarness::RandHarness(Device device) : OpHarness(std::move(device)) {
  poprand::addCodelets(graph());
}

Tensor RandHarness::reference(const std::vector<std::size_t> &shape, Type type) {
  Tensor t = graph().addVariable(type, shape, "reference");
  poputil::mapTensorLinearly(graph(), t);
  return t;
}

Tensor RandHarness::seed(const std::string &name, std::uint32_t s0, std::uint32_t s1) {
  return input(name, UNSIGNED_INT, {2}, {double(s0), double(s1)});
}

Stats stats(const std::vector<double> &xs) {
  Stats s{0, 0, xs.empty() ? 0 : xs[0], xs.empty() ? 0 : xs[0]};
  for (double x : xs) {
    s.mean += x;
    s.min = std::min(s.min, x);
    s.max = std::max(s.max, x);
  }
  s.mean /= double(xs.size());
  for (double x : xs)
    s.variance += (x - s.mean) * (x - s.mean);
  s.variance /= double(xs.size() - 1);
  return s;
}

double fraction(const std::vector<double> &xs, double v) {
  return double(std::count(xs.begin(), xs.end(), v)) / double(xs.size());
}

} // namespace poprand::test
