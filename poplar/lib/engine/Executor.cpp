// BSP execution of steps: compute sets, exchanges, host stream copies, prints and control flow.
#include "engine/Executor.hpp"

#include "compiler/CycleConstants.hpp"
#include "compiler/ExchangePlan.hpp"
#include "core/Errors.hpp"
#include "core/HostConvert.hpp"
#include "engine/TensorPrinter.hpp"
#include "support/CopyBytes.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

namespace poplar::detail {

namespace {
// Keep the execution trace bounded: a long Repeat must not grow the profile without limit.
constexpr std::size_t kMaxRecordedSteps = 1u << 20;

/// The plan in `slot`, made by `make()` on first use.
template <class Plan, class Make> Plan &planIn(std::optional<Plan> &slot, Make make) {
  if (!slot)
    slot.emplace(make());
  return *slot;
}

/// Grows `buffer` to at least `n` bytes (never shrinks, so a step reuses it) and returns it.
std::uint8_t *bufferOf(std::vector<std::uint8_t> &buffer, std::size_t n) {
  if (buffer.size() < n)
    buffer.resize(n);
  return buffer.data();
}

/// A tensor's bytes in element order, for a print or an error message (not a hot path).
std::vector<std::uint8_t> gather(const DeviceState &device, const TensorLocation &tensor) {
  std::vector<std::uint8_t> bytes;
  for (const auto &r : tensor.runs) {
    const auto *p = device.tiles[r.tile].data() + r.offset;
    bytes.insert(bytes.end(), p, p + r.bytes);
  }
  return bytes;
}

} // namespace

Executor::Executor(const CompiledGraph &cg, const std::vector<LoadedCodelet> &codelets,
                   NativeVertexCode &native, DeviceState &device, ProfileData &profile,
                   unsigned hostThreads, const MemoryChecker *checker)
    : cg_(cg), codelets_(codelets), native_(native), checker_(checker), device_(device),
      profile_(profile), threads_(std::max(1u, hostThreads)), scratch_(threads_),
      computePlans_(cg.computeSets.size()), exchangePlans_(cg.exchanges.size()),
      streamPlans_(cg.streamCopies.size()) {}

WorkerPool &Executor::pool() {
  if (!pool_)
    pool_ = std::make_unique<WorkerPool>(threads_);
  return *pool_;
}

void Executor::advance(std::uint64_t TileCycles::*phase, std::uint64_t cycles) {
  profile_.everyTile.*phase += cycles;
  device_.clock += cycles;
}

void Executor::recordStep(std::uint32_t step, std::uint64_t from) {
  if (profile_.executions.size() < kMaxRecordedSteps)
    profile_.executions.push_back({run_, step, from, device_.clock});
}

template <class Chunk>
void Executor::runChunks(const Chunks &chunks, HandOffChoice &handOff, Chunk chunk) {
  if (!chunks.parallel) {
    for (std::uint32_t c = 0; c < chunks.count(); ++c)
      chunk(c, 0);
    return;
  }
  bool threads = handOff.useThreads();
  auto start = std::chrono::steady_clock::now();
  if (threads)
    pool().run(chunks.count(), chunk);
  else
    for (std::uint32_t c = 0; c < chunks.count(); ++c)
      chunk(c, 0);
  handOff.record(threads,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

template <class Body> void Executor::forChunks(CopyPlan &plan, Body body) {
  const auto &begin = plan.chunks.begin;
  runChunks(plan.chunks, plan.handOff,
            [&](std::uint32_t c, unsigned) { body(begin[c], begin[c + 1], plan.offset[c]); });
}

void Executor::runCopies(CopyPlan &plan, bool staged) {
  std::uint8_t *const *base = tileBase_.data();
  const CopyGroup *groups = plan.groups.data();
  if (!staged) {
    forChunks(plan, [&](std::size_t b, std::size_t e, std::size_t) {
      for (std::size_t i = b; i < e;) {
        // A chunk starts at a lattice's row block (planCopy) and may end inside the lattice.
        const std::size_t rows = std::min<std::size_t>(plan.latticeRows[i], e - i);
        copyLattice(base, groups + i, rows);
        i += rows;
      }
    });
    return;
  }
  // Overlapping sources and destinations: read everything before writing anything, as an
  // exchange does.
  std::uint8_t *staging = bufferOf(staging_, plan.bytes);
  forChunks(plan, [&](std::size_t b, std::size_t e, std::size_t at) {
    for (std::size_t i = b; i < e; ++i) {
      const CopyGroup &g = groups[i];
      copyStrided(staging + at, g.bytes, base[g.srcTile] + g.srcOffset, g.srcStride, g.bytes,
                  g.count);
      at += std::size_t(g.bytes) * g.count;
    }
  });
  forChunks(plan, [&](std::size_t b, std::size_t e, std::size_t at) {
    for (std::size_t i = b; i < e; ++i) {
      const CopyGroup &g = groups[i];
      copyStrided(base[g.dstTile] + g.dstOffset, g.dstStride, staging + at, g.bytes, g.bytes,
                  g.count);
      at += std::size_t(g.bytes) * g.count;
    }
  });
}

void Executor::runVertices(const CompiledComputeSet &cs, ComputePlan &plan) {
  bool failed = false;
  const VertexStep step{cg_,
                        codelets_,
                        native_,
                        cs,
                        tileViews_.data(),
                        plan.vertexCycles.data(),
                        checker_,
                        plan.runOffset.data(),
                        plan.runCycles.data(),
                        plan.tileCopyIn.get(),
                        tileBase_.data()};
  TileWork *tiles = plan.tiles.data();
  const auto &begin = plan.chunks.begin;
  auto chunk = [&](std::uint32_t c, unsigned thread) {
    TileWork *failedTile = nullptr;
    auto error =
        runTiles(step, tiles + begin[c], tiles + begin[c + 1], scratch_[thread].state, &failedTile);
    if (!error)
      return;
    // Every tile still runs, and the lowest failing tile's error is the one reported, so
    // neither memory nor the message depends on the thread count.
    std::size_t t = std::size_t(failedTile - tiles);
    std::lock_guard<std::mutex> lock(errorMutex_);
    if (!failed || t < errorTile_) {
      failed = true;
      errorTile_ = t;
      error_ = error;
    }
  };
  runChunks(plan.chunks, plan.handOff, chunk);
  if (!failed)
    for (const SplitTile &split : plan.splits)
      finishSplitTile(step, tiles + split.first, split.count);
  if (failed) {
    auto error = std::move(error_);
    error_ = nullptr;
    std::rethrow_exception(error);
  }
}

void Executor::compute(std::uint32_t index) {
  const auto &cs = cg_.computeSets.at(index);
  auto &plan = planIn(computePlans_[index], [&] { return planCompute(cg_, cs, threads_); });
  auto sync = internalSyncCycles(cg_.target);
  if (!cs.copyIn.empty()) {
    // Into fresh local buffers: by tile as the vertices run, or here.
    if (plan.tileCopyIn)
      plan.tileCopyIn->startRun();
    else
      runCopies(plan.copyIn, false);
    advance(&TileCycles::sync, sync);
    advance(&TileCycles::internalExchange, cs.copyInCycles);
  }
  runVertices(cs, plan);
  // BSP: the compute phase lasts as long as the slowest tile; the others wait in sync.
  std::uint64_t longest = 0;
  for (const auto &work : plan.tiles) {
    longest = std::max(longest, work.tileCycles);
    auto &tc = profile_.tileCycles[work.tile];
    tc.sync -= work.tileCycles; // may wrap below zero: everyTile.sync adds `longest` back
    tc.computeIncludingIdle += work.tileCycles;
    tc.computeExcludingIdle += work.busyCycles;
  }
  profile_.everyTile.sync += longest;
  const std::uint64_t *vertexCycles = plan.vertexCycles.data();
  for (const auto &span : plan.typeSpans) {
    std::uint64_t sum = 0;
    for (std::uint32_t v = span.begin; v < span.end; ++v)
      sum += vertexCycles[v];
    profile_.vertexTypes[span.type].cycles += sum;
  }
  if (!plan.measured)
    replanFromMeasurement(plan, cg_, cs, threads_);
  device_.clock += longest;
  advance(&TileCycles::sync, sync);
  if (!cs.copyOut.empty()) {
    runCopies(plan.copyOut, false);
    advance(&TileCycles::sync, sync);
    advance(&TileCycles::internalExchange, cs.copyOutCycles);
  }
}

void Executor::exchange(std::uint32_t index) {
  const auto &ex = cg_.exchanges[index];
  auto &plan = planIn(exchangePlans_[index], [&] { return planCopy(ex.runs, threads_); });
  runCopies(plan, ex.staged);
  advance(&TileCycles::sync, ex.syncCycles);
  advance(&TileCycles::internalExchange, ex.exchangeCycles);
}

void Executor::streamCopy(std::uint32_t index) {
  const auto &sc = cg_.streamCopies[index];
  auto &plan = planIn(streamPlans_[index], [&] { return planCopy(sc.runs, threads_); });
  auto &connection = device_.streams[sc.stream];
  std::uint8_t *const *base = tileBase_.data();
  const auto &runs = sc.runs;
  std::uint8_t *bytes = bufferOf(hostBytes_, plan.bytes);
  if (sc.toDevice) {
    connection.read(bytes, plan.bytes);
    forChunks(plan, [&](std::size_t b, std::size_t e, std::size_t at) {
      for (std::size_t i = b; i < e; at += runs[i++].bytes)
        popsdk::support::copyBytes(base[runs[i].tile] + runs[i].offset, bytes + at, runs[i].bytes);
    });
  } else {
    forChunks(plan, [&](std::size_t b, std::size_t e, std::size_t at) {
      for (std::size_t i = b; i < e; at += runs[i++].bytes)
        popsdk::support::copyBytes(bytes + at, base[runs[i].tile] + runs[i].offset, runs[i].bytes);
    });
    connection.write(bytes, plan.bytes);
  }
  advance(&TileCycles::sync, sc.syncCycles);
  advance(&TileCycles::hostExchange, sc.hostCycles);
}

void Executor::print(const CompiledPrint &p) {
  printTensor(*print_, p.title, Type(p.tensor.type), p.tensor.shape, gather(device_, p.tensor));
}

std::int64_t Executor::readScalar(const ScalarRef &s) const {
  return deviceElementToInt(Type(s.type), device_.tiles[s.tile].data() + s.offset);
}

std::uint64_t Executor::run(unsigned index, std::ostream &printStream) {
  print_ = &printStream;
  run_ = std::uint32_t(profile_.runs.size());
  std::uint64_t start = device_.clock;
  if (profile_.tileCycles.size() != cg_.target.numTiles())
    profile_.tileCycles.assign(cg_.target.numTiles(), TileCycles());
  // Tile memories are replaced by a load, never during a run: their views are made once a
  // load, not once a run (a pass over every tile of the target, whichever tiles run).
  if (viewsOfLoad_ != device_.loads) {
    tileBase_.resize(device_.tiles.size());
    tileViews_.resize(device_.tiles.size());
    for (std::size_t t = 0; t < device_.tiles.size(); ++t) {
      tileBase_[t] = device_.tiles[t].data();
      tileViews_[t] = viewOf(device_.tiles[t].data(), device_.tiles[t].size());
    }
    viewsOfLoad_ = device_.loads;
  }
  auto &loopCounters = loopCounters_;
  auto &returnStack = returnStack_;
  loopCounters.clear();
  returnStack.clear();
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
                    gather(device_, e.debugTensor.tensor));
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
