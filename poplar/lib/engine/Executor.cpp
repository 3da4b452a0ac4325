// BSP execution of steps: compute sets, exchanges, host stream copies, prints and control flow.
#include "engine/Executor.hpp"

#include "compiler/CycleConstants.hpp"
#include "compiler/ExchangePlan.hpp"
#include "core/Errors.hpp"
#include "core/HostConvert.hpp"
#include "engine/Parallel.hpp"
#include "engine/TensorPrinter.hpp"

#include <cstring>

namespace poplar::detail {

namespace {
// Keep the execution trace bounded: a long Repeat must not grow the profile without limit.
constexpr std::size_t kMaxRecordedSteps = 1u << 20;
// Below this many bytes, threads cost more than they save.
constexpr std::size_t kParallelCopyBytes = 1u << 16;
} // namespace

void Executor::advance(std::uint64_t TileCycles::*phase, std::uint64_t cycles) {
  for (auto &t : profile_.tileCycles)
    t.*phase += cycles;
  device_.clock += cycles;
}

void Executor::recordStep(std::uint32_t step, std::uint64_t from) {
  if (profile_.executions.size() < kMaxRecordedSteps)
    profile_.executions.push_back({run_, step, from, device_.clock});
}

namespace {

/// Offsets of each run's bytes in a packed buffer, plus the total at the end.
template <class Run> std::vector<std::size_t> packedOffsets(const std::vector<Run> &runs) {
  std::vector<std::size_t> at(runs.size() + 1, 0);
  for (std::size_t i = 0; i < runs.size(); ++i)
    at[i + 1] = at[i] + runs[i].bytes;
  return at;
}

/// Runs f over [0, n) items, on the pool only when there are enough bytes to pay for it.
void forRuns(std::size_t n, std::size_t bytes,
             const std::function<void(std::size_t, std::size_t)> &f) {
  if (bytes < kParallelCopyBytes)
    f(0, n);
  else
    parallelChunks(n, 64, f);
}

} // namespace

std::vector<std::uint8_t> Executor::gather(const std::vector<MemRun> &runs) const {
  auto at = packedOffsets(runs);
  std::vector<std::uint8_t> bytes(at.back());
  forRuns(runs.size(), bytes.size(), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      std::memcpy(bytes.data() + at[i], device_.tiles[runs[i].tile].data() + runs[i].offset,
                  runs[i].bytes);
  });
  return bytes;
}

void Executor::scatter(const std::vector<MemRun> &runs, const std::vector<std::uint8_t> &bytes) {
  auto at = packedOffsets(runs);
  forRuns(runs.size(), bytes.size(), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      std::memcpy(device_.tiles[runs[i].tile].data() + runs[i].offset, bytes.data() + at[i],
                  runs[i].bytes);
  });
}

void Executor::runCopies(const std::vector<CopyRun> &runs, bool staged) {
  auto &tiles = device_.tiles;
  auto at = packedOffsets(runs);
  if (!staged) {
    forRuns(runs.size(), at.back(), [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        const auto &r = runs[i];
        std::memcpy(tiles[r.dstTile].data() + r.dstOffset, tiles[r.srcTile].data() + r.srcOffset,
                    r.bytes);
      }
    });
    return;
  }
  // Overlapping sources and destinations: read everything before writing anything, as an
  // exchange does.
  std::vector<std::uint8_t> staging(at.back());
  forRuns(runs.size(), at.back(), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      std::memcpy(staging.data() + at[i], tiles[runs[i].srcTile].data() + runs[i].srcOffset,
                  runs[i].bytes);
  });
  forRuns(runs.size(), at.back(), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      std::memcpy(tiles[runs[i].dstTile].data() + runs[i].dstOffset, staging.data() + at[i],
                  runs[i].bytes);
  });
}

void Executor::compute(std::uint32_t index) {
  const auto &cs = cg_.computeSets.at(index);
  auto sync = internalSyncCycles(cg_.target);
  if (!cs.copyIn.empty()) {
    runCopies(cs.copyIn, false); // into fresh local buffers
    advance(&TileCycles::sync, sync);
    advance(&TileCycles::internalExchange, cs.copyInCycles);
  }
  // Vertices are sorted by tile: one task per tile, since tiles never share memory.
  std::vector<std::pair<std::size_t, std::size_t>> tiles;
  for (std::size_t i = 0; i < cs.vertices.size(); ++i)
    if (tiles.empty() || cs.vertices[tiles.back().first].tile != cs.vertices[i].tile)
      tiles.emplace_back(i, i + 1);
    else
      tiles.back().second = i + 1;
  std::vector<TileComputeResult> results(tiles.size());
  parallelFor(tiles.size(), [&](std::size_t t) {
    auto [begin, end] = tiles[t];
    results[t] =
        runTileVertices(cg_, codelets_, cs, begin, end, device_.tiles[cs.vertices[begin].tile]);
  });
  // BSP: the compute phase lasts as long as the slowest tile; the others wait in sync.
  std::uint64_t longest = 0;
  for (const auto &r : results)
    longest = std::max(longest, r.tileCycles);
  for (auto &t : profile_.tileCycles)
    t.sync += longest;
  for (std::size_t t = 0; t < tiles.size(); ++t) {
    auto &tc = profile_.tileCycles[cs.vertices[tiles[t].first].tile];
    tc.sync -= results[t].tileCycles;
    tc.computeIncludingIdle += results[t].tileCycles;
    tc.computeExcludingIdle += results[t].busyCycles;
    for (const auto &[type, cycles] : results[t].cyclesByType)
      profile_.vertexTypes.at(type).cycles += cycles;
  }
  device_.clock += longest;
  advance(&TileCycles::sync, sync);
  if (!cs.copyOut.empty()) {
    runCopies(cs.copyOut, false);
    advance(&TileCycles::sync, sync);
    advance(&TileCycles::internalExchange, cs.copyOutCycles);
  }
}

void Executor::exchange(std::uint32_t index) {
  const auto &ex = cg_.exchanges[index];
  runCopies(ex.runs, ex.staged);
  advance(&TileCycles::sync, ex.syncCycles);
  advance(&TileCycles::internalExchange, ex.exchangeCycles);
}

void Executor::streamCopy(std::uint32_t index) {
  const auto &sc = cg_.streamCopies[index];
  auto &connection = device_.streams[sc.stream];
  std::size_t n = 0;
  for (const auto &r : sc.runs)
    n += r.bytes;
  if (sc.toDevice) {
    std::vector<std::uint8_t> bytes(n);
    connection.read(bytes.data(), n);
    scatter(sc.runs, bytes);
  } else {
    auto bytes = gather(sc.runs);
    connection.write(bytes.data(), n);
  }
  advance(&TileCycles::sync, sc.syncCycles);
  advance(&TileCycles::hostExchange, sc.hostCycles);
}

void Executor::print(const CompiledPrint &p) {
  printTensor(print_, p.title, Type(p.tensor.type), p.tensor.shape, gather(p.tensor.runs));
}

std::int64_t Executor::readScalar(const ScalarRef &s) const {
  return deviceElementToInt(Type(s.type), device_.tiles[s.tile].data() + s.offset);
}

std::uint64_t Executor::run(unsigned index) {
  run_ = std::uint32_t(profile_.runs.size());
  std::uint64_t start = device_.clock;
  if (profile_.tileCycles.size() != cg_.target.numTiles())
    profile_.tileCycles.assign(cg_.target.numTiles(), TileCycles());
  std::vector<std::uint64_t> loopCounters;
  std::vector<std::uint32_t> returnStack;
  auto predicateCost = [&] {
    advance(&TileCycles::sync, internalSyncCycles(cg_.target));
    advance(&TileCycles::internalExchange,
            (kPredicateBroadcastBytes + cg_.target.exchangeBytesPerCycle - 1) /
                cg_.target.exchangeBytesPerCycle);
    advance(&TileCycles::computeIncludingIdle, kSupervisorBranchCycles);
  };
  for (std::uint32_t pc = cg_.programEntries.at(index);;) {
    const Step &step = cg_.steps[pc];
    std::uint64_t from = device_.clock;
    std::uint32_t next = pc + 1;
    switch (step.kind) {
    case StepKind::Compute:
      compute(step.arg);
      break;
    case StepKind::Exchange:
      exchange(step.arg);
      break;
    case StepKind::StreamCopy:
      streamCopy(step.arg);
      break;
    case StepKind::Print:
      print(cg_.prints[step.arg]);
      break;
    case StepKind::Sync:
      advance(&TileCycles::sync,
              step.arg ? cg_.target.globalSyncCycles : internalSyncCycles(cg_.target));
      break;
    case StepKind::Jump:
      next = step.target;
      break;
    case StepKind::BranchIfZero:
    case StepKind::BranchIfNonZero: {
      predicateCost();
      bool isZero = readScalar(cg_.scalars[step.arg]) == 0;
      if (isZero == (step.kind == StepKind::BranchIfZero))
        next = step.target;
      break;
    }
    case StepKind::LoopBegin:
      loopCounters.push_back(step.arg);
      break;
    case StepKind::LoopNext:
      advance(&TileCycles::computeIncludingIdle, kSupervisorBranchCycles);
      if (loopCounters.empty())
        raise<control_program_error>("Engine::run: LoopNext without a loop at step ", pc);
      if (--loopCounters.back() > 0)
        next = step.target;
      else
        loopCounters.pop_back();
      break;
    case StepKind::Call:
      returnStack.push_back(pc + 1);
      next = step.target;
      break;
    case StepKind::Return:
      if (returnStack.empty())
        raise<control_program_error>("Engine::run: Return without a Call at step ", pc);
      next = returnStack.back();
      returnStack.pop_back();
      break;
    case StepKind::Switch: {
      predicateCost();
      const auto &sw = cg_.switches[step.arg];
      auto value = readScalar(sw.control);
      next = sw.defaultTarget;
      for (const auto &[caseValue, target] : sw.cases)
        if (caseValue == value)
          next = target;
      break;
    }
    case StepKind::Error: {
      const auto &e = cg_.errors[step.arg];
      std::ostringstream os;
      os << "ErrorProgram: " << e.message;
      if (!e.debugTensor.tensor.runs.empty()) {
        os << " ";
        print(e.debugTensor); // also shown on the print stream, as Poplar does
        printTensor(os, "debug tensor", Type(e.debugTensor.tensor.type), e.debugTensor.tensor.shape,
                    gather(e.debugTensor.tensor.runs));
      }
      std::string text = os.str();
      if (!text.empty() && text.back() == '\n')
        text.pop_back();
      throw application_runtime_error(text);
    }
    case StepKind::End:
      profile_.runs.push_back({index, cg_.programNames.at(index), start, device_.clock});
      profile_.totalCycles = device_.clock;
      return device_.clock - start;
    }
    if (step.kind != StepKind::Jump && step.kind != StepKind::LoopBegin)
      recordStep(pc, from);
    pc = next;
  }
}

} // namespace poplar::detail
