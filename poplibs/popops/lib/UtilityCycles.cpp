// Loop counts of the NaN-check, loop-counter and scalar-in-rows vertices: a fixed entry cost, a
// set-up per region or piece, and the cycles of the inner loop per element (a load, a mask and a
// compare-and-branch for the NaN test).
#include "UtilityCycles.hpp"

namespace popops::internal {

namespace {
constexpr unsigned numWorkers = 6;
}

std::uint64_t hasNaNOrInf1DCycles(const VertexCost &c) {
  unsigned n = c.regions.empty() ? 0 : c.regions[0];
  std::uint64_t perWorker = (n + numWorkers - 1) / numWorkers;
  return 20 + numWorkers * (12 + 4 * perWorker);
}

std::uint64_t hasNaNOrInf2DCycles(const VertexCost &c) {
  std::uint64_t cycles = 12;
  for (unsigned n : c.regions)
    cycles += 8 + 4 * std::uint64_t(n);
  return cycles;
}

// ForLoopCounter, CircBufIncrIndex, CircOffset: a few scalar loads, an add, a compare, a store.
std::uint64_t counterCycles(const VertexCost &) { return 14; }

std::uint64_t selectFromRowsCycles(const VertexCost &c) {
  return 12 + 14 * std::uint64_t(c.regions.size());
}

// A row with a bad index is filled with NaN: the worst case is every element written.
std::uint64_t updateScalarInRowsCycles(const VertexCost &c) {
  std::uint64_t cycles = 12;
  for (unsigned n : c.regions)
    cycles += 14 + 2 * std::uint64_t(n);
  return cycles;
}

// Three channels of a multiply, a subtract and a multiply, and the zero channel, per pixel.
std::uint64_t normaliseImageCycles(const VertexCost &c) {
  unsigned pixels = c.regions.empty() ? 0 : c.regions[0];
  std::uint64_t perWorker = (pixels + numWorkers - 1) / numWorkers;
  return 20 + numWorkers * (10 + 16 * perWorker);
}

// A bisection over the levels and a counter update per element.
std::uint64_t histogramCycles(const VertexCost &c) {
  unsigned steps = 1;
  while ((1u << steps) <= c.slices)
    ++steps;
  std::uint64_t cycles = 12 + 2 * std::uint64_t(c.slices);
  for (unsigned n : c.regions)
    cycles += 8 + std::uint64_t(n) * (10 + 6 * steps);
  return cycles;
}

} // namespace popops::internal
