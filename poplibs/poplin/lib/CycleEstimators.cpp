// Cycle estimates of the poplin vertices, following the codelets' loops (codelets/poplin).
#include "CycleEstimators.hpp"

#include "support/Raise.hpp"

#include <poputil/exceptions.hpp>

#include <algorithm>

namespace poplin::internal {

namespace {

constexpr unsigned kWorkers = 6;
constexpr unsigned kPassInChans = 16;
// Thread cycles fitted to the codelets' code (popc -S) as the interpreter runs it: a pass is
// its coefficient load (32) plus the loop control, shape and address arithmetic and the issue
// of the two AMP instructions.
constexpr unsigned kPassCycles = 32 + 21;

unsigned ceilDiv(unsigned a, unsigned b) { return (a + b - 1) / b; }

} // namespace

unsigned ampMacsPerCycle(const poplar::Type &dataType) {
  return dataType == poplar::FLOAT ? 16 : 64;
}

std::uint64_t convPartial1x1OutCycles(const VertexCost &c) {
  const bool f32 = c.dataType == poplar::FLOAT;
  const unsigned units = f32 ? 8 : 16, perPosition = f32 ? 8 : 4;
  const unsigned chunks = ceilDiv(c.outChans, units);
  // The codelet gives workers output chunks when there are six or more, else positions.
  const unsigned chunksPerWorker = chunks >= kWorkers ? ceilDiv(chunks, kWorkers) : chunks;
  const unsigned positionsPerWorker =
      chunks >= kWorkers ? c.positions : ceilDiv(c.positions, kWorkers);
  const std::uint64_t chunkLoops = std::uint64_t(c.groups) * chunksPerWorker;
  const std::uint64_t passes = chunkLoops * ceilDiv(c.inChans, kPassInChans);
  const std::uint64_t worker =
      79 + 8 * c.groups + 27 * chunkLoops +
      passes * (kPassCycles + std::uint64_t(perPosition) * positionsPerWorker);
  return kWorkers * worker;
}

std::uint64_t convPartialHorizontalMacCycles(const VertexCost &c) {
  // The loop bodies per input channel are counted from popc -S; the setups of a vertex, a group,
  // a row and a position were fitted to the interpreter over 1-60 positions, 1-24 groups and
  // 1-11 output channels (all within 1%).
  // The codelet gives workers positions when there are six or more (or one group), else groups.
  const bool byPositions = c.positions >= kWorkers || c.groups == 1;
  const std::uint64_t groups = byPositions ? c.groups : ceilDiv(c.groups, kWorkers);
  const std::uint64_t positions = byPositions ? ceilDiv(c.positions, kWorkers) : c.positions;
  const bool halfPartials = c.partialsType == poplar::HALF;
  // Per input channel of a row of w output channels: the input's load, a weight load and a MAC
  // per channel, and the step to the next weight row (a half load converts: 2 cycles). A packed
  // row (all of outChans <= 3) steps its weights by a constant.
  const unsigned load = c.dataType == poplar::HALF ? 2 : 1;
  auto perInChan = [&](unsigned w) { return load + w * (load + 1) + 3; };
  const std::uint64_t k = c.inChans;
  std::uint64_t perGroup = 0, perPosition = 0, rows = 1;
  if (c.outChans <= 3) {
    static constexpr unsigned kGroup[4] = {0, 31, 31, 33}, kPosition[4] = {0, 13, 16, 18};
    perGroup = kGroup[c.outChans];
    perPosition = kPosition[c.outChans] + k * (perInChan(c.outChans) - (c.outChans == 1 ? 2 : 1));
  } else {
    static constexpr unsigned kRestPosition[4] = {0, 14, 17, 19};
    const unsigned full = c.outChans / 4, rest = c.outChans % 4;
    perGroup = 37 + 18 * full + (rest ? 8 : 0);
    perPosition =
        full * (20 + k * perInChan(4)) + (rest ? kRestPosition[rest] + k * perInChan(rest) : 0);
    rows = full + (rest ? 1 : 0);
  }
  if (halfPartials) // each output rounds and stores as half
    perPosition += 3 * c.outChans + 2 * rows;
  const std::uint64_t worker = (byPositions ? 66 : 28) + (halfPartials ? 8 : 0) +
                               groups * (perGroup + positions * perPosition);
  return kWorkers * worker;
}

std::uint64_t reduceAddCycles(const VertexCost &c) {
  // Per worker: blocks of 32 elements of a float accumulator; each partial adds a load and an
  // add per element (and a convert for half), the output a store (and a convert for half).
  const unsigned elems = ceilDiv(ceilDiv(c.numElems, 2), kWorkers) * 2;
  const std::uint64_t blocks = ceilDiv(elems, 32);
  const unsigned perElementPartial = c.partialsType == poplar::HALF ? 6 : 5;
  const unsigned perElementOut = c.dataType == poplar::HALF ? 5 : 2;
  const std::uint64_t worker = 38 + blocks * (7 + 13 * std::uint64_t(c.numPartials)) +
                               std::uint64_t(elems) * (perElementPartial * c.numPartials) +
                               std::uint64_t(elems) * perElementOut - elems / 2;
  return kWorkers * worker;
}

CycleEstimator estimatorOf(const std::string &name) {
#define POPLIN_VERTEX2(vertex, pairs, estimator)                                                   \
  if (name == #vertex)                                                                             \
    return estimator;
#define POPLIN_ALL_FAMILIES
#include "poplin/Vertices.def"
#undef POPLIN_ALL_FAMILIES
  popsdk::support::raise<poputil::poplibs_error>("poplin has no vertex '", name, "'");
}

} // namespace poplin::internal
