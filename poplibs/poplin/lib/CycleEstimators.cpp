// Cycle estimates of the poplin vertices, following the codelets' loops (codelets/poplin).
#include "CycleEstimators.hpp"

#include "support/Raise.hpp"

#include <poputil/exceptions.hpp>

#include <algorithm>

namespace poplin::internal {

namespace {

constexpr unsigned kWorkers = 6;
constexpr unsigned kPassInChans = 16;
// Thread cycles fitted to the codelet's code (popc -S) as the interpreter runs it: a pass is
// its coefficient load (32), the issue of the AMP pass and the steps of its pointers; a last
// pass of fewer than 16 input channels builds its own shape.
constexpr unsigned kPassCycles = 35, kRestPassCycles = 36;
// ReduceAdd's worker entry and exit: its range and the tests between its loops (fitted to the
// interpreter; a vertex entry saves no registers).
constexpr unsigned kReduceEntryCycles = 37;
// ConvPartialnx1's loops as popc -S gives them (one thread cycle an instruction, 32 for a
// coefficient load): the worker's entry and exit, a group's set-up, an output element zeroed
// (a half store is a sub-word write: 2),
// a kernel position's set-up, an output chunk's, a coefficient block's load and loop, and an
// entry's pass (its triple's loads, its pointers and the pass's issue).
constexpr unsigned kNx1WorkerCycles = 51, kNx1GroupCycles = 27, kNx1ZeroFloatCycles = 1,
                   kNx1ZeroHalfCycles = 2, kNx1KernelCycles = 21, kNx1ChunkCycles = 22,
                   kNx1LoadCycles = 53, kNx1EntryCycles = 12;

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
  const std::uint64_t fullPasses = chunkLoops * (c.inChans / kPassInChans);
  const std::uint64_t restPasses = c.inChans % kPassInChans ? chunkLoops : 0;
  const std::uint64_t positionCycles = std::uint64_t(perPosition) * positionsPerWorker;
  const std::uint64_t worker = 99 + 10 * c.groups + 16 * chunkLoops +
                               fullPasses * (kPassCycles + positionCycles) +
                               restPasses * (kRestPassCycles + positionCycles);
  return kWorkers * worker;
}

std::uint64_t convPartialnx1Cycles(const VertexCost &c) {
  // The codelet's loops, per conv group: the worker zeros its output positions, then per kernel
  // position, output chunk and pass of 16 input channels loads the coefficients once and runs
  // one AMP pass per worklist entry.
  const bool f32 = c.dataType == poplar::FLOAT;
  const unsigned units = f32 ? 8 : 16, perPosition = f32 ? 8 : 4;
  const std::uint64_t chunks = ceilDiv(c.outChans, units);
  const std::uint64_t blocks = chunks * ceilDiv(c.inChans, kPassInChans);
  const std::uint64_t kernel = c.kernelPositions;
  const unsigned zeroCycles =
      c.partialsType == poplar::HALF ? kNx1ZeroHalfCycles : kNx1ZeroFloatCycles;
  const std::uint64_t perGroup =
      kNx1GroupCycles + zeroCycles * std::uint64_t(c.workerZeros) * c.outChans +
      kernel * (kNx1KernelCycles + chunks * kNx1ChunkCycles + blocks * kNx1LoadCycles) +
      blocks * (kNx1EntryCycles * std::uint64_t(c.workerEntries) +
                perPosition * std::uint64_t(c.workerEntryPositions));
  return kWorkers * (kNx1WorkerCycles + c.groups * perGroup);
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
  // Per input channel of a row of w output channels (a rpt body): the input's load, a weight
  // load and a MAC per channel, and the step to the next weight row (shift, add; a half load
  // converts: 2 cycles). Each MAC issues with the next weight load (float only: a half load
  // takes two cycles, so issues alone) and the last with the step. A packed row (all of
  // outChans <= 3) steps its weights by a constant (one add fewer), or with one channel, not at
  // all: its weight pointer post-increments, so that MAC has nothing to issue with. Each row's
  // loop costs its set-up (addi, rpt) besides.
  const bool halfData = c.dataType == poplar::HALF;
  const unsigned load = halfData ? 2 : 1;
  constexpr unsigned kLoopSetUp = 2;
  auto perInChan = [&](unsigned w) { return load + w * (load + 1) + 2 - (halfData ? 1 : w); };
  const std::uint64_t k = c.inChans;
  std::uint64_t perGroup = 0, perPosition = 0, rows = 1;
  if (c.outChans <= 3) {
    static constexpr unsigned kGroup[4] = {0, 31, 31, 33}, kPosition[4] = {0, 13, 16, 18};
    perGroup = kGroup[c.outChans];
    perPosition = kPosition[c.outChans] + kLoopSetUp +
                  k * (c.outChans == 1 ? 2 * load + 1 // loads, MAC
                                       : perInChan(c.outChans) - 1);
  } else {
    static constexpr unsigned kRestPosition[4] = {0, 14, 17, 19};
    const unsigned full = c.outChans / 4, rest = c.outChans % 4;
    perGroup = 37 + 18 * full + (rest ? 8 : 0);
    perPosition = full * (20 + kLoopSetUp + k * perInChan(4)) +
                  (rest ? kRestPosition[rest] + kLoopSetUp + k * perInChan(rest) : 0);
    rows = full + (rest ? 1 : 0);
  }
  if (halfPartials) // each output rounds and stores as half
    perPosition += 3 * c.outChans + 2 * rows;
  const std::uint64_t worker =
      (byPositions ? 60 : 22) + groups * (perGroup + positions * perPosition);
  return kWorkers * worker;
}

std::uint64_t reduceAddCycles(const VertexCost &c) {
  // The codelet's loops as popc -S gives them (a thread cycle a bundle, "||" in the listing),
  // their set-ups fitted to the interpreter over the shapes of test/codelets/poplin (within 4%):
  // each worker sums its range in blocks of 32 elements, at most one of each of 16, 8 and 4, a
  // pair and a last element. A piece of q quads (2q pairs) loads partial 0 (a half partial's
  // converts pair with the next load: one cycle more), then the others: each pair's add issues
  // beside the next pair's load, the last beside the next partial's pointer load (a loop trip
  // of 2q + 2: the loads, the pointer's offset and the first load alone; a half partial's pair
  // also converts: 4q + 2), and the last partial's beside the first store (half outputs convert
  // first: one cycle more). Then the stores (a half output's converts pair with them: one cycle
  // more). The busiest worker sets the time.
  const bool halfIn = c.partialsType == poplar::HALF, halfOut = c.dataType == poplar::HALF;
  const std::uint64_t later = c.numPartials > 0 ? c.numPartials - 1 : 0;
  auto piece = [&](std::uint64_t quads) {
    const std::uint64_t first = 2 * quads + (halfIn ? 1 : 0);
    const std::uint64_t stores = 2 * quads + (halfOut ? 1 : 0);
    std::uint64_t rest = 0;
    if (later > 0)
      rest = halfIn ? 10 + (later - 1) * (4 * quads + 2) + 4 * quads + 1
                    : 10 + (later - 1) * (2 * quads + 2) + 2 * quads + (halfOut ? 1 : 0);
    return 15 + first + stores + rest;
  };
  const std::uint64_t pair = 17 + (halfIn ? 1 : 0) + (halfOut ? 1 : 0) + later * (halfIn ? 7 : 6);
  const std::uint64_t single = 26 + (halfIn ? 1 : 0) + (halfOut ? 3 : 0) + later * (halfIn ? 7 : 6);
  const unsigned grain = halfOut ? 4 : 2;
  unsigned perWorker = std::min(c.numElems, ceilDiv(ceilDiv(c.numElems, grain), kWorkers) * grain);
  // Shares of whole blocks of 32 where five of them leave the sixth some.
  if (5 * (ceilDiv(perWorker, 32) * 32) < c.numElems)
    perWorker = ceilDiv(perWorker, 32) * 32;
  std::uint64_t busiest = 0;
  for (unsigned w = 0; w < kWorkers; ++w) {
    const unsigned begin = std::min(c.numElems, w * perWorker);
    const unsigned n = std::min(c.numElems, begin + perWorker) - begin;
    const std::uint64_t worker = kReduceEntryCycles + (n / 32) * piece(8) +
                                 (n % 32 / 16) * piece(4) + (n % 16 / 8) * piece(2) +
                                 (n % 8 / 4) * piece(1) + (n % 4 / 2) * pair + (n % 2) * single;
    busiest = std::max(busiest, worker);
  }
  return kWorkers * busiest;
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
