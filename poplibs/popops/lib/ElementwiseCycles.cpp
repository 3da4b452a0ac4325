// PopLibs' cycle formulas for the element-wise, fill, cast and scaled-add vertices (SDK 3.4:
// popopsCycleEstimators.cpp and PerformanceEstimation.cpp), restated over VertexCost. The
// constants are PopLibs' counts of the fixed instructions of each vertex (prologue, epilogue,
// remainder handling); worker count, vector and data path widths come from the target.
#include "ElementwiseCycles.hpp"

#include "ElementwiseOpCosts.hpp"

#include <algorithm>

namespace popops::internal {

namespace {

using expr::BinaryOpType;
using expr::UnaryOpType;
using poplar::Type;

/// Tile cycles the supervisor spends launching a MultiVertex's workers and syncing them
/// (PopLibs' basicOpSupervisorOverhead, unscaled pointers).
constexpr std::uint64_t kSupervisorOverhead = 11;

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

unsigned numWorkers(const VertexCost &c) { return c.target.getNumWorkerContexts(); }

/// The element count of a 1-D vertex.
std::uint64_t elements(const VertexCost &c) { return c.regions.empty() ? 0 : c.regions[0]; }

/// Elements per worker of a 1-D MultiVertex, as PopLibs estimates the slowest worker.
std::uint64_t perWorker(const VertexCost &c) { return ceilDiv(elements(c), numWorkers(c)); }

/// Tile cycles of a MultiVertex whose slowest worker takes `worker` thread cycles.
std::uint64_t multiVertex(const VertexCost &c, std::uint64_t worker) {
  return numWorkers(c) * worker + kSupervisorOverhead;
}

/// float and half ADD, SUBTRACT and MULTIPLY have assembly loops in PopLibs: 2 cycles of loop
/// overhead per vector instead of 5.
bool hasAsmPath(BinaryOpType op, const Type &type) {
  return (type == poplar::FLOAT || type == poplar::HALF) &&
         (op == BinaryOpType::ADD || op == BinaryOpType::SUBTRACT || op == BinaryOpType::MULTIPLY);
}

/// One unary op's inner loop over n elements; the loop overhead of 4 is a load, a store and the
/// loop decision.
std::uint64_t unaryLoop(const VertexCost &c, std::uint64_t n) {
  LoopCost l = unaryLoopCost(UnaryOpType(c.op), c.type);
  if (!l.natural && l.unroll > 0)
    return ceilDiv(n, l.unroll) * l.cyclesPerLoop;
  unsigned width = l.natural ? c.target.getVectorWidth(c.type) : 1;
  return ceilDiv(n, width) * (l.cyclesPerLoop + 4);
}

std::uint64_t binaryLoop(const VertexCost &c, std::uint64_t n) {
  auto op = BinaryOpType(c.op);
  LoopCost l = binaryLoopCost(op, c.type);
  if (l.natural)
    return ceilDiv(n, c.target.getVectorWidth(c.type)) *
           (l.cyclesPerLoop + (hasAsmPath(op, c.type) ? 2 : 5));
  return ceilDiv(n, std::max(l.unroll, 1u)) * l.cyclesPerLoop;
}

/// Fill of one region of n elements: 64-bit stores after an alignment prologue.
std::uint64_t fillRegion(const VertexCost &c, std::uint64_t n) {
  unsigned bytes = c.target.getTypeSize(c.type);
  if (bytes == 1) // st32 below 64 bytes, st64 above
    return n < 64 ? 28 + n / 4 : 39 + n / 8;
  unsigned width = c.target.getDataPathWidth() / (8 * bytes);
  if (c.type == poplar::HALF) // sub-word stores at both ends
    return n == 1 ? 15 : n == 2 ? 21 : 26 + n / width;
  return 16 + n / width + 6 + (n % width == 1) + 1;
}

/// One worker's cast of n elements: float <-> half convert a vector per cycle on the auxiliary
/// pipeline, limited by two 64-bit loads and one 64-bit store a cycle; other conversions are C++,
/// one element per trip plus a cycle.
std::uint64_t castWorker(const VertexCost &c, std::uint64_t n) {
  auto isFloating = [](const Type &t) { return t == poplar::FLOAT || t == poplar::HALF; };
  bool aux = isFloating(c.type) && isFloating(c.outType);
  unsigned pathBytes = c.target.getDataPathWidth() / 8;
  unsigned loadWidth = pathBytes / c.target.getTypeSize(c.type);
  unsigned storeWidth = pathBytes / c.target.getTypeSize(c.outType);
  unsigned width = aux ? std::min(2 * loadWidth, storeWidth) : 1;
  unsigned loads = width / std::min(width, loadWidth), stores = width / std::min(width, storeWidth);
  std::uint64_t cycles = 19 + (std::max(loads, stores) + !aux) * (n / width);
  for (unsigned bit = 1; bit < width; bit <<= 1) // the remainder: a test per bit, 2 if set
    cycles += 1 + ((n % width) & bit ? 2 : 0);
  return cycles;
}

/// Integer A = a.A + b.B: C++ on the supervisor, three elements per trip.
std::uint64_t scaledAddInteger(std::uint64_t n) {
  return 53 + 26 * (n / 3) + 6 + 26 * (n % 3) + 8 + 6;
}

} // namespace

std::uint64_t unaryOp1DCycles(const VertexCost &c) {
  std::uint64_t worker =
      (UnaryOpType(c.op) == UnaryOpType::EXPONENT ? 33 : 17) + unaryLoop(c, perWorker(c));
  return multiVertex(c, worker) + 9;
}

std::uint64_t unaryOp1DInPlaceCycles(const VertexCost &c) {
  return multiVertex(c, 55 + unaryLoop(c, perWorker(c))) + 9;
}

std::uint64_t unaryOp2DCycles(const VertexCost &c) {
  std::uint64_t cycles = 20;
  for (unsigned n : c.regions)
    cycles += unaryLoop(c, n);
  return cycles;
}

std::uint64_t binaryOp1DCycles(const VertexCost &c) {
  return multiVertex(c, (c.type == poplar::FLOAT ? 29 : 26) + binaryLoop(c, perWorker(c)));
}

std::uint64_t binaryOp1DInPlaceCycles(const VertexCost &c) {
  return multiVertex(c, 58 + binaryLoop(c, perWorker(c)));
}

std::uint64_t binaryOp2DCycles(const VertexCost &c) {
  std::uint64_t cycles = 5;
  for (unsigned n : c.regions)
    cycles += binaryLoop(c, n);
  return cycles;
}

std::uint64_t binaryOp2DInPlaceCycles(const VertexCost &c) {
  std::uint64_t cycles = 20;
  for (unsigned n : c.regions)
    cycles += binaryLoop(c, n);
  return cycles;
}

std::uint64_t fillCycles(const VertexCost &c) { return fillRegion(c, elements(c)); }

std::uint64_t fill2dCycles(const VertexCost &c) {
  // The 1-D fill's 5 (half) or 6 cycles of loading its state become a 3-cycle loop per region.
  std::uint64_t notHalf = c.type != poplar::HALF;
  std::uint64_t cycles = 5 + notHalf;
  for (unsigned n : c.regions)
    cycles += fillRegion(c, n) - (2 + notHalf);
  return cycles;
}

std::uint64_t cast1DCycles(const VertexCost &c) {
  return 12 + numWorkers(c) * (castWorker(c, perWorker(c)) + 18);
}

std::uint64_t cast2DCycles(const VertexCost &c) {
  std::uint64_t cycles = 5;
  for (unsigned n : c.regions)
    cycles += 11 + castWorker(c, n);
  return cycles;
}

// ScaledAdd1D is PopLibs' aXPlusbY with tensor scales: the supervisor loads both scales.
std::uint64_t scaledAdd1DCycles(const VertexCost &c) {
  std::uint64_t n = elements(c);
  if (c.type != poplar::FLOAT && c.type != poplar::HALF)
    return scaledAddInteger(n);
  unsigned width = c.target.getVectorWidth(c.type), workers = numWorkers(c);
  std::uint64_t vectors = n / width, rem = n % width;
  std::uint64_t each = vectors / workers, extra = vectors % workers;
  // Set-up, the launch, the remainder test, the worker split, aXPlusbY's scale loads (+12) and
  // the tensor-scale branch (+6).
  std::uint64_t supervisor = 21 + kSupervisorOverhead + (rem == 0 ? 7 : 13) + 12 + 12 + 6;
  std::uint64_t remainder = rem == 0                  ? 0
                            : c.type == poplar::FLOAT ? 8
                                                      : 5 + (rem >= 2 ? 7 : 0) + (rem == 3 ? 6 : 0);
  std::uint64_t slowest = 0;
  for (unsigned w = 0; w < workers; ++w) {
    std::uint64_t v = each + (w < extra);
    std::uint64_t cycles = 15 + (v ? 6 + 3 * (v - 1) : 0) + 2 + 1;
    if (w == extra) // this worker also does the elements after the last whole vector
      cycles += 1 + remainder;
    slowest = std::max(slowest, cycles);
  }
  return supervisor + workers * slowest;
}

std::uint64_t scaledAdd2DCycles(const VertexCost &c) {
  if (c.type != poplar::FLOAT && c.type != poplar::HALF) {
    std::uint64_t cycles = 8 + 1;
    for (unsigned n : c.regions)
      cycles += 7 + 5 * std::uint64_t(n);
    return cycles;
  }
  unsigned width = c.target.getVectorWidth(c.type);
  std::uint64_t cycles = 9 + 1 + 6; // + tensor scales + aXPlusbY
  for (unsigned n : c.regions) {
    std::uint64_t vectors = n / width, rem = n % width;
    cycles += 15 + (vectors ? 5 : 0) + 3 * vectors;
    if (c.type == poplar::FLOAT)
      cycles += rem ? 7 : 0;
    else
      cycles += (rem > 0 ? 4 : 0) + (rem >= 2 ? 6 : 0) + (rem % 2 == 1 ? 7 : 0);
  }
  return cycles;
}

// PopLibs' Select and Clamp are 2-D vertices (5 + a loop per region); popops' are MultiVertex
// forms, so each worker runs that over its share.
std::uint64_t select1DCycles(const VertexCost &c) {
  // Per element: three loads, a select and a store.
  return multiVertex(c, 5 + 6 + 5 * perWorker(c));
}

std::uint64_t clamp1DCycles(const VertexCost &c) {
  // float and half clamp a vector in 2 cycles (max, min); integers load three, compare twice,
  // select and store: 7 per element (unsigned has no PopLibs figure: as int).
  bool floating = c.type == poplar::FLOAT || c.type == poplar::HALF;
  unsigned width = floating ? c.target.getVectorWidth(c.type) : 1;
  unsigned cyclesPerVector = floating ? 2 : 7;
  return multiVertex(c, 5 + 6 + ceilDiv(perWorker(c), width) * cyclesPerVector);
}

} // namespace popops::internal
