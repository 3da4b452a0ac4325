// poprand's cycle estimates. Uniform and Bernoulli are PopLibs' formulas for its vertices on the
// IPU; PopLibs gives none for the others, so these are ours, built the same way: a fixed cost
// (vertex entry and generator set-up) plus a cost per natural vector of output.
#include "CycleEstimators.hpp"

#include <map>
#include <stdexcept>

namespace poprand::internal {

namespace {

std::uint64_t elements(const VertexCost &cost) {
  std::uint64_t n = 0;
  for (unsigned r : cost.regions)
    n += r;
  return n;
}

/// Output elements per natural vector: 4 half, 2 float or int.
std::uint64_t vectorWidth(const VertexCost &cost) { return cost.outType == poplar::HALF ? 4 : 2; }

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

} // namespace

std::uint64_t setSeedCycles(const VertexCost &) {
  // Ours: each worker hashes four words and warms up its generator (about 40 instructions),
  // in parallel: 6 worker cycles per tile cycle.
  return 6 * 40 + 11;
}

std::uint64_t uniformCycles(const VertexCost &cost) {
  std::uint64_t n = elements(cost);
  if (cost.outType == poplar::INT)
    return 4 + 132 + 6 * (n / 2) + 2 * (n % 2);
  if (cost.outType == poplar::HALF)
    return 4 + 4 * ceilDiv(n, 16) + 144 + (n % 4 ? 12 : 0);
  return 4 + 4 * ceilDiv(n, 32) + 132 + (n % 2 ? 4 : 0);
}

std::uint64_t logUniformCycles(const VertexCost &cost) {
  // Ours: uniform, then exp (3 cycles) and the clamp (2) per element.
  return uniformCycles(cost) + 5 * elements(cost);
}

std::uint64_t normalCycles(const VertexCost &cost) {
  // Ours: the IPU draws a vector of normals as fast as a vector of uniforms.
  VertexCost asFloat = cost;
  asFloat.outType = cost.outType == poplar::HALF ? poplar::HALF : poplar::FLOAT;
  return uniformCycles(asFloat);
}

std::uint64_t truncatedNormalCycles(const VertexCost &cost) {
  // Ours: one normal pass and, on average, one redraw pass with its compare and select.
  return 2 * normalCycles(cost) + 2 * ceilDiv(elements(cost), vectorWidth(cost));
}

std::uint64_t bernoulliCycles(const VertexCost &cost) {
  std::uint64_t n = elements(cost);
  return 4 + ceilDiv(n, vectorWidth(cost)) + (cost.outType == poplar::HALF ? 126 : 138);
}

std::uint64_t dropoutCycles(const VertexCost &cost) {
  // Ours: Bernoulli's mask, then a load, multiply and store per vector.
  return bernoulliCycles(cost) + 3 * ceilDiv(elements(cost), vectorWidth(cost));
}

CycleEstimator estimatorOf(const std::string &name) {
  static const std::map<std::string, CycleEstimator> table = {
#define POPRAND_VERTEX(name, types, estimator) {#name, estimator},
#define POPRAND_PLAIN_VERTEX(name, estimator) {#name, estimator},
#define POPRAND_ALL_FAMILIES
#include "poprand/Vertices.def"
#undef POPRAND_ALL_FAMILIES
  };
  auto it = table.find(name);
  if (it == table.end())
    throw std::logic_error("poprand: no estimator for vertex " + name);
  return it->second;
}

} // namespace poprand::internal
