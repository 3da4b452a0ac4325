// PopLibs' reduction cycle formulas (popops/reduction/CycleEstimationFunctions.cpp): vectorised
// inner loops for ADD, SQUARE_ADD, MUL, MAX and MIN on float and half partials, element loops
// otherwise; LOG_ADD costs 20 cycles per element (a software log and exp).
#include "ReduceCycles.hpp"

#include <algorithm>

namespace popops::internal {

using namespace poplar;

namespace {

bool accumulates(Operation op) { return op == Operation::ADD || op == Operation::SQUARE_ADD; }

bool vectorised(const ReduceVertexCost &v) {
  bool floating = v.partialsType == FLOAT || v.partialsType == HALF;
  switch (v.op) {
  case Operation::ADD:
  case Operation::SQUARE_ADD:
  case Operation::MUL:
  case Operation::MAX:
  case Operation::MIN:
    return floating;
  default:
    return false;
  }
}

/// Elements one 64-bit load brings in.
unsigned dataPathElems(const ReduceVertexCost &v) {
  return std::max(1u, v.target.getDataPathWidth() / (8 * v.target.getTypeSize(v.partialsType)));
}

/// Elements one accumulation step handles: 8 half or 4 float for ADD and SQUARE_ADD (accumulated
/// in float), the natural vector width otherwise.
unsigned opVectorWidth(const ReduceVertexCost &v) {
  if (accumulates(v.op))
    return v.partialsType == HALF ? 8 : 4;
  return std::max(1u, v.target.getVectorWidth(v.partialsType));
}

unsigned log2Floor(unsigned x) {
  unsigned r = 0;
  while (x >>= 1)
    ++r;
  return r;
}

std::uint64_t opCycles(Operation op) { return op == Operation::LOG_ADD ? 20 : 1; }

} // namespace

std::uint64_t reduceRegionCycles(const ReduceVertexCost &v, const ReduceRegionCost &r) {
  if (!vectorised(v)) {
    std::uint64_t cycles = 8;
    std::uint64_t perElem = 24 + opCycles(v.op) + (v.partialsType != v.outType);
    for (auto p : r.partialSizes)
      cycles += 22 + perElem * p;
    return cycles;
  }
  const std::uint64_t opVW = opVectorWidth(v);
  const std::uint64_t dpw = dataPathElems(v);
  const std::uint64_t acc = accumulates(v.op);
  const std::uint64_t outVW = std::max(1u, v.target.getVectorWidth(v.outType));
  auto store = [&](std::uint64_t w) { return (2 + v.isUpdate) * std::min(w, outVW) + acc; };
  std::uint64_t cycles = 16 + 6 + 2 * log2Floor(unsigned(opVW)) + 2;
  const std::uint64_t numPartials = r.partialSizes.size();
  // One pass per vector of outputs; the last one may be short.
  for (std::uint64_t begin = 0; begin < r.outSize; begin += opVW) {
    std::uint64_t width = std::min<std::uint64_t>(opVW, r.outSize - begin);
    cycles += (acc ? 5 : 3) + store(width) + 1 + numPartials * 10;
    for (auto p : r.partialSizes)
      cycles += (p / r.outSize) * (2 + 2 * acc + opVW / std::min(opVW, dpw) + 3);
  }
  return cycles;
}

std::uint64_t reduceCycles(const ReduceVertexCost &v,
                           const std::vector<ReduceRegionCost> &regions) {
  std::uint64_t cycles = vectorised(v) ? 7 + 26 : 7 + 24;
  for (const auto &r : regions)
    cycles += reduceRegionCycles(v, r);
  return cycles;
}

namespace {

/// The ReduceOps with `lanes` (codelets/popops/Reduce.cpp) on float or half partials.
bool foldsInLanes(const ReduceVertexCost &v) {
  bool floating = v.partialsType == FLOAT || v.partialsType == HALF;
  return floating && (v.op == Operation::ADD || v.op == Operation::SQUARE_ADD ||
                      v.op == Operation::MAX || v.op == Operation::MIN);
}

// The lane block loop's costs, thread cycles, fitted to the vertex (float ADD, aligned rows, 8-256
// outputs, 2-20 rows, 1-3 regions; bundles counted as the interpreter issues them): the
// vertex with its region and the loop's call; a block of 8 outputs, its set-up per partial region
// unless all are single rows, and its cost per row; a column past the last whole block and its
// cost per row.
constexpr std::uint64_t kVertexCycles = 188, kBlockCycles = 20, kBlockPieceCycles = 22,
                        kBlockRowCycles = 12, kColumnCycles = 85, kColumnRowCycles = 4;

/// Whether the region goes through the lane block loop: narrower ones, and one output's runs,
/// keep PopLibs' estimate, whose plans (an intermediate stage for a few outputs of many rows, the
/// scalar sum's spread) measured as fast or faster.
bool inBlockLoop(const ReduceVertexCost &v, std::size_t width) {
  return foldsInLanes(v) && width >= 8;
}

} // namespace

std::uint64_t regionCycles(const ReduceVertexCost &v, const ReduceRegionCost &r) {
  if (!inBlockLoop(v, r.outSize))
    return reduceRegionCycles(v, r);
  std::uint64_t rows = 0;
  bool single = true;
  for (auto p : r.partialSizes) {
    rows += p / r.outSize;
    single = single && p == r.outSize;
  }
  const std::uint64_t blocks = r.outSize / 8, columns = r.outSize % 8;
  const std::uint64_t perBlock =
      kBlockCycles + (single ? 0 : r.partialSizes.size() * kBlockPieceCycles);
  return blocks * (perBlock + rows * kBlockRowCycles) +
         columns * (kColumnCycles + rows * kColumnRowCycles);
}

std::uint64_t regionFoldCycles(const ReduceVertexCost &v, std::size_t width, std::size_t rows) {
  if (!inBlockLoop(v, width))
    return reduceCycles(v, {{width, {width * rows}}});
  return kVertexCycles + regionCycles(v, {width, {width * rows}});
}

std::uint64_t continuousReduceCycles(const ReduceVertexCost &v, std::size_t numOutputs,
                                     std::size_t numPartials) {
  const std::uint64_t perLoad =
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(opVectorWidth(v), dataPathElems(v)));
  const std::uint64_t loads = (numPartials + perLoad - 1) / perLoad;
  std::uint64_t cycles =
      opCycles(v.op) * numOutputs * (v.op == Operation::LOG_ADD ? numPartials : loads);
  cycles += (numPartials % 2 ? 2 : 0) + 12 * numOutputs + 10 + (v.isUpdate ? 1 : 0) + 7;
  return cycles;
}

} // namespace popops::internal
