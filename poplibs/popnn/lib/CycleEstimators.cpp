// popnn's cycle estimates. The non-linearity and loss figures are PopLibs' formulas for its
// vertices on the IPU (assembly inner loops over natural vectors: 2 floats or 4 halves); PopLibs
// gives none for our two-stage arg max, so those are ours, built the same way.
#include "CycleEstimators.hpp"

#include <popnn/NonLinearityDef.hpp>

#include <map>
#include <stdexcept>

namespace popnn::internal {

namespace {

using N = NonLinearityType;

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

bool isHalf(const VertexCost &cost) { return cost.type == poplar::HALF; }

/// Elements per natural vector (64 bits).
unsigned vectorWidth(const VertexCost &cost) { return isHalf(cost) ? 4 : 2; }

N nlOf(const VertexCost &cost) { return static_cast<N>(cost.op); }

/// PopLibs' cost of one forward op on a scalar and on a natural vector.
struct OpCycles {
  unsigned scalar, vector;
};

OpCycles forwardOp(const VertexCost &cost) {
  bool half = isHalf(cost);
  switch (nlOf(cost)) {
  case N::RELU:
    return {1, 1};
  case N::HARD_SIGMOID: // a multiply-add and a clamp: two bundles
    return {2, 2};
  case N::SIGMOID:
    return half ? OpCycles{2, 4} : OpCycles{5, 10};
  case N::TANH:
    return half ? OpCycles{1, 2} : OpCycles{5, 10};
  case N::GELU:
    return half ? OpCycles{5, 5} : OpCycles{10, 10};
  case N::GELU_ERF:
    return half ? OpCycles{15, 15} : OpCycles{30, 30};
  default: // SWISH
    return half ? OpCycles{3, 5} : OpCycles{6, 11};
  }
}

OpCycles gradientOp(const VertexCost &cost) {
  bool half = isHalf(cost);
  switch (nlOf(cost)) {
  case N::GELU:
    return half ? OpCycles{5, 5} : OpCycles{10, 10};
  case N::GELU_ERF:
    return half ? OpCycles{15, 15} : OpCycles{30, 30};
  case N::SWISH:
    return half ? OpCycles{7, 9} : OpCycles{10, 15};
  default: // RELU, SIGMOID, TANH, HARD_SIGMOID
    return {3, 3};
  }
}

/// The MultiVertex: 9 supervisor cycles, then 6 x the busiest worker, which takes ceil of a sixth
/// of the whole vectors, with fixed set-up and the scalar remainder on top.
std::uint64_t multiVertexCycles(const VertexCost &cost, OpCycles op, unsigned extra) {
  std::uint64_t n = cost.regions.empty() ? 0 : cost.regions[0];
  unsigned vw = vectorWidth(cost);
  std::uint64_t v = ceilDiv(n / vw, 6);
  std::uint64_t worker = 3 + extra + 5 + 2 + 2 + 5 + 3;
  if (v > 0)
    worker += 2 + op.scalar + (v - 1) * op.vector + 1 + op.scalar;
  if (n % vw)
    worker += (n % vw) * (op.scalar + 3);
  return 9 + 6 * worker;
}

/// The single-worker 2-D form: per region a set-up and a vector loop.
std::uint64_t vertex2DCycles(const VertexCost &cost, OpCycles op) {
  unsigned vw = vectorWidth(cost);
  std::uint64_t cycles = 5;
  for (unsigned n : cost.regions)
    cycles += 8 + (n / vw) * op.vector + (n % vw) * (op.scalar + 3);
  return cycles;
}

} // namespace

std::uint64_t nonLinearity1DCycles(const VertexCost &cost) {
  return multiVertexCycles(cost, forwardOp(cost), nlOf(cost) == N::SWISH ? 2 : 0);
}

std::uint64_t nonLinearity2DCycles(const VertexCost &cost) {
  return vertex2DCycles(cost, forwardOp(cost));
}

std::uint64_t nonLinearityGrad1DCycles(const VertexCost &cost) {
  return multiVertexCycles(cost, gradientOp(cost), nlOf(cost) == N::SWISH ? 2 : 0);
}

std::uint64_t nonLinearityGrad2DCycles(const VertexCost &cost) {
  return vertex2DCycles(cost, gradientOp(cost));
}

std::uint64_t lossSumSquaredCycles(const VertexCost &cost) {
  std::uint64_t n = cost.regions.empty() ? 0 : cost.regions[0];
  return 20 + 4 * (isHalf(cost) ? n / 2 : n);
}

std::uint64_t lossCrossEntropyCycles(const VertexCost &cost) {
  std::uint64_t n = cost.regions.empty() ? 0 : cost.regions[0];
  return 20 + 9 * (isHalf(cost) ? n / 2 : n);
}

std::uint64_t classGatherCycles(const VertexCost &cost) {
  // Ours, from the loop popc generates: each worker scans ceil(n / 6) elements at 6 instructions
  // each (load, compare, branch, two moves, the loop step; 7 for half, whose load takes 2) after
  // about 20 of set-up; 6 x that, plus the supervisor's 11.
  std::uint64_t n = cost.regions.empty() ? 0 : cost.regions[0];
  return 11 + 6 * (20 + (isHalf(cost) ? 7 : 6) * ceilDiv(n, 6));
}

std::uint64_t classSparseCycles(const VertexCost &cost) {
  // Ours, the same way: one worker walks the float candidates and their labels at 6 instructions
  // each, after about 20 of set-up.
  std::uint64_t n = cost.regions.empty() ? 0 : cost.regions[0];
  return 20 + 6 * n;
}

CycleEstimator estimatorOf(const std::string &name) {
  static const std::map<std::string, CycleEstimator> table = {
#define POPNN_NL_VERTEX(name, estimator) {#name, estimator},
#define POPNN_VERTEX(name, types, estimator) {#name, estimator},
#define POPNN_CLASS_VERTEX(name, types, estimator) {#name, estimator},
#define POPNN_ALL_FAMILIES
#include "popnn/Vertices.def"
#undef POPNN_ALL_FAMILIES
  };
  auto it = table.find(name);
  if (it == table.end())
    throw std::logic_error("popnn: no estimator for vertex " + name);
  return it->second;
}

} // namespace popnn::internal
