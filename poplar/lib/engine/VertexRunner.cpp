// Vertex execution: each worker runs on the interpreter (or the native tier) over its tile's
// memory only; the tile's time comes from the cycle model's schedule of the measured thread
// cycles.
#include "engine/VertexRunner.hpp"

#include "core/Errors.hpp"
#include "engine/MemoryCheck.hpp"
#include "engine/NativeVertexCode.hpp"
#include "engine/TileCopyIn.hpp"
#include "interp/CycleModel.hpp"
#include "interp/Enter.hpp"
#include "interp/Interpreter.hpp"
#include "interp/NativeTier.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iomanip>
#include <sstream>
#include <string_view>

namespace poplar::detail {

namespace {

/// Instructions one worker may issue before the run is stopped as runaway (about a second of
/// host time at the interpreter's dispatch rate).
constexpr std::uint64_t kWorkerInstructionBudget = 200'000'000;

/// A code symbol as the codelet author wrote it: helpers are C++-mangled in the .gp symbol
/// table ("_Z6loadAtPKij" -> "loadAt(int const*, unsigned int)"); entries are not mangled.
std::string readableSymbol(const std::string &name) {
  int status = 0;
  char *demangled = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  std::string result = status == 0 && demangled ? demangled : name;
  std::free(demangled);
  return result;
}

std::string describeFault(const LoadedCodelet &c, const CompiledComputeSet &cs,
                          const VertexInstance &v, const std::string &typeName,
                          const interp::RunResult &r, unsigned worker, bool multiVertex,
                          const std::string &stray) {
  std::ostringstream os;
  os << "Engine::run: vertex '" << typeName << "' (id " << v.id << ") on tile " << v.tile
     << " in compute set '" << cs.name << "'";
  if (multiVertex)
    os << ", worker " << worker;
  if (r.trap == interp::Trap::None)
    os << " returned false";
  else
    os << " faulted: " << interp::trapName(r.trap);
  if (r.trap == interp::Trap::StrayAccess)
    os << ": " << (r.accessStore ? "store" : "load") << " of " << r.accessBytes
       << " bytes at address 0x" << std::hex << r.address << std::dec << ", " << stray;
  if (r.trap == interp::Trap::OutOfBounds || r.trap == interp::Trap::Misaligned)
    os << " at address 0x" << std::hex << r.address << std::dec;
  os << " (pc " << r.pc;
  if (const auto *sym = c.file.symbolFor(r.pc))
    os << " in " << readableSymbol(sym->name);
  if (const auto *line = c.file.lineFor(r.pc); line && line->line)
    os << ", " << c.file.files.at(line->file) << ':' << line->line;
  os << ")";
  return os.str();
}

/// The error of a vertex run that faulted or returned false. Out of line and given its
/// arguments one by one: a lambda capturing them was rebuilt on the stack for every vertex.
[[noreturn]] __attribute__((noinline)) void
throwFault(const VertexStep &step, const LoadedCodelet &codelet, const CompiledVertexType &type,
           const VertexInstance &v, const interp::Launch &launch,
           const interp::WorkerState &scratch, const interp::RunResult &r, unsigned worker) {
  throw application_runtime_error(describeFault(
      codelet, step.cs, v, type.name, r, worker, type.multiVertex,
      r.trap == interp::Trap::StrayAccess ? step.checker->describe(step.cs, v, launch, scratch, r)
                                          : ""));
}

} // namespace

std::vector<LoadedCodelet> loadCodeletObjects(const CompiledGraph &cg) {
  std::vector<LoadedCodelet> loaded;
  for (const auto &cc : cg.codelets) {
    LoadedCodelet l;
    try {
      l.file = gp::readGp(cc.gpBytes);
    } catch (const gp::GpFormatError &e) {
      raise<graph_object_load_error>("Engine: a codelet object in the executable is corrupt: ",
                                     e.what());
    }
    l.dataAddress = kTileMemoryBase + cc.dataOffset;
    std::vector<std::uint8_t> code = l.file.code;
    for (const auto &r : l.file.relocations)
      if (r.section == gp::Section::Code) {
        std::uint32_t value = r.target == gp::Section::Data ? l.dataAddress + r.addend : r.addend;
        std::memcpy(code.data() + r.offset, &value, 4);
      }
    l.words.resize(code.size() / 8);
    std::memcpy(l.words.data(), code.data(), l.words.size() * 8);
    l.code = interp::decodeCode(l.words.data(), l.words.size());
    l.wordsHash = std::hash<std::string_view>()(
        {reinterpret_cast<const char *>(l.words.data()), 8 * l.words.size()});
    loaded.push_back(std::move(l));
  }
  return loaded;
}

TileView viewOf(std::uint8_t *memory, std::uint32_t bytes) {
  interp::TileMemory mem{kTileMemoryBase, memory, bytes};
  return {mem, interp::ops::window(mem)};
}

namespace {

/// What a step reads per tile (its view, its first vertex, that vertex's state in the tile's
/// memory) lies in about a megabyte at 1,472 tiles, more than a core's L2 cache: fetching the
/// next tiles' while this one runs hides most of the misses a tiny vertex otherwise waits on.
void prefetchAhead(const VertexStep &step, const TileWork *work, const TileWork *last) {
  if (last - work > 2) {
    __builtin_prefetch(&step.tiles[work[2].tile]);
    __builtin_prefetch(&step.cs.vertices[work[2].begin]);
  }
  if (last - work > 1 && work[1].begin < work[1].end) {
    const TileView &next = step.tiles[work[1].tile];
    __builtin_prefetch(next.mem.data + step.cs.vertices[work[1].begin].stateOffset);
  }
}

/// A vertex's runs (their cycles in `cycles`) into its tile's schedule, setPerfEstimate
/// replacing the measurement as on Poplar's IPUModel; its thread cycles.
std::uint64_t scheduleVertex(interp::TileScheduler &schedule, const VertexInstance &v,
                             bool multiVertex, std::uint64_t *cycles, unsigned runs) {
  std::uint64_t total = 0;
  for (unsigned w = 0; w < runs; ++w)
    total += cycles[w];
  if (v.perfEstimate >= 0) {
    total = std::uint64_t(v.perfEstimate);
    std::fill(cycles, cycles + runs, (total + runs - 1) / runs);
  }
  if (multiVertex)
    schedule.addMultiVertex(cycles, runs);
  else
    schedule.addVertex(cycles[0]);
  return total;
}

interp::TileScheduler tileScheduler(const CompiledGraph &cg) {
  interp::CycleModelParams params;
  params.workerContexts = cg.target.numWorkerContexts;
  return interp::TileScheduler(params);
}

} // namespace

std::exception_ptr runTiles(const VertexStep &step, TileWork *first, TileWork *last,
                            interp::WorkerState &scratch, TileWork **failed) {
  const CompiledGraph &cg = step.cg;
  const CompiledComputeSet &cs = step.cs;
  const unsigned workers = cg.target.numWorkerContexts;
  interp::TileScheduler schedule = tileScheduler(cg);
  // A MultiVertex's worker cycles; only a target with more contexts than an IPU's allocates.
  std::uint64_t fixed[interp::kNumWorkerContexts];
  std::vector<std::uint64_t> more(workers > interp::kNumWorkerContexts ? workers : 0);
  std::uint64_t *cycles = more.empty() ? fixed : more.data();
  interp::Launch launch;
  launch.budget = kWorkerInstructionBudget;
  // Consecutive vertices, on a tile and from tile to tile, are mostly of few types: what a
  // type needs is looked up when the type changes, not for every vertex. That includes its
  // tier: under `auto` a type that becomes hot moves to the native tier at its next change
  // of type or chunk, which changes host time only.
  std::uint32_t typeIndex = ~0u;
  const CompiledVertexType *type = nullptr;
  const LoadedCodelet *codelet = nullptr;
  const interp::NativeCode *code = nullptr;
  unsigned runs = 1;
  // A vertex on the native tier (each worker of a MultiVertex) is launched here, inline, with
  // the frame's window set once per tile and the registers not cleared (NativeFrame::fresh):
  // through interp::run, the launch was a third of a tiny vertex's host time. `direct`: a
  // one-worker vertex, which may also be only relaunched (below).
  bool native = false, direct = false;
  // Whether the last direct run left the convention of a launch of its type in `scratch` but
  // for r1 and r2 (interp::keepsConvention): the next vertex of the type is then only
  // relaunched, on the next tile too when its stack is at the same place (most tiles).
  bool entered = false, keeps = false;
  interp::NativeFrame frame;
  std::exception_ptr error;
  for (TileWork *work = first; work != last; ++work) {
    prefetchAhead(step, work, last);
    if (step.copyIn)
      step.copyIn->bringIn(step.tileBase, work->tile);
    const TileView &tile = step.tiles[work->tile];
    const auto &stacks = cg.stacks[work->tile];
    launch.stackSize = stacks.bytesPerWorker;
    // A part's runs all take its context's stack: parts of a tile run side by side.
    const std::uint32_t stackBase = kTileMemoryBase + stacks.offset,
                        partStack = stackBase + work->context * stacks.bytesPerWorker;
    frame.window = &tile.window;
    frame.memory = &tile.mem;
    schedule.reset();
    try {
      for (std::size_t i = work->begin; i < work->end; ++i) {
        const auto &v = cs.vertices[i];
        if (v.vertexType != typeIndex) {
          typeIndex = v.vertexType;
          type = &cg.vertexTypes[typeIndex];
          codelet = &step.codelets[type->codelet];
          runs = cg.runsOf(*type);
          launch.globals = codelet->dataAddress;
          // Memory-checked vertices run on the interpreter's checked loop, never natively.
          code = step.checker ? nullptr : step.native.forType(typeIndex);
          native = code && type->entry < codelet->code.numWords;
          direct = native && !type->multiVertex;
          keeps = direct && interp::keepsConvention(*code, codelet->code);
          entered = false;
        }
        launch.vertexState = kTileMemoryBase + v.stateOffset;
        if (direct) {
          std::uint64_t total;
          launch.workerId = 0;
          launch.stackBase = partStack;
          if (entered && scratch.stackLo == partStack &&
              scratch.stackHi == partStack + launch.stackSize)
            interp::relaunchNative(*code, launch, scratch, frame);
          else
            interp::launchNative(*code, codelet->code, launch, scratch, frame);
          if (frame.status == std::uint32_t(interp::Trap::None) && frame.result != 0) {
            total = frame.cycles;
            entered = keeps;
          } else {
            entered = false; // the interpreter may have finished the run in `scratch`
            auto r =
                interp::nativeResult(frame, *code, codelet->code, tile.mem, scratch, launch.budget);
            if (r.trap != interp::Trap::None || r.result == 0)
              throwFault(step, *codelet, *type, v, launch, scratch, r, 0);
            total = r.cycles;
          }
          // setPerfEstimate replaces the measurement (below); one worker takes all of it.
          if (v.perfEstimate >= 0)
            total = std::uint64_t(v.perfEstimate);
          step.vertexCycles[i] = total;
          schedule.addVertex(total);
          continue;
        }
        interp::AccessMap *access = nullptr;
        if (step.checker) {
          thread_local interp::AccessMap map;
          access = &map;
          step.checker->mapFor(cs, v, map);
        }
        std::uint64_t issued = 0;
        const unsigned fromWorker = i == work->begin ? work->beginWorker : 0,
                       toWorker = i + 1 == work->end && work->endWorker ? work->endWorker : runs;
        for (unsigned w = fromWorker; w < toWorker; ++w) {
          launch.workerId = w;
          launch.stackBase = work->part ? partStack : stackBase + w * stacks.bytesPerWorker;
          interp::RunResult r;
          if (native) {
            interp::launchNative(*code, codelet->code, launch, scratch, frame);
            if (frame.status == std::uint32_t(interp::Trap::None) && frame.result != 0) {
              cycles[w] = frame.cycles;
              continue;
            }
            r = interp::nativeResult(frame, *code, codelet->code, tile.mem, scratch, launch.budget);
          } else {
            r = access ? interp::runChecked(codelet->code, type->entry, tile.mem, launch, scratch,
                                            *access)
                       : interp::run(codelet->code, type->entry, tile.mem, launch, scratch);
          }
          if (r.trap != interp::Trap::None || r.result == 0)
            throwFault(step, *codelet, *type, v, launch, scratch, r, w);
          cycles[w] = r.cycles;
          issued += r.instructions;
        }
        if (!code && !step.checker)
          step.native.interpreted(typeIndex, issued);
        // A MultiVertex's runs may fall in several parts of a split tile: each leaves its runs'
        // cycles in their slots. A one-worker vertex runs in one part, which schedules it as a
        // whole tile would (finishSplitTile reads its cycles back).
        if (type->multiVertex && work->part)
          std::copy(cycles + fromWorker, cycles + toWorker,
                    step.runCycles + step.runOffset[i] + fromWorker);
        else
          step.vertexCycles[i] = scheduleVertex(schedule, v, type->multiVertex, cycles, runs);
      }
      // A part's are overwritten by finishSplitTile.
      auto result = schedule.finish();
      work->tileCycles = result.tileCycles;
      work->busyCycles = result.busyThreadCycles + result.supervisorCycles;
    } catch (...) {
      // The tiles after it still run, so memory does not depend on how tiles are chunked.
      if (!error) {
        error = std::current_exception();
        *failed = work;
      }
    }
  }
  return error;
}

void finishSplitTile(const VertexStep &step, TileWork *parts, std::size_t count) {
  const CompiledGraph &cg = step.cg;
  interp::TileScheduler schedule = tileScheduler(cg);
  for (std::uint32_t i = parts[0].begin; i < parts[count - 1].end; ++i) {
    const VertexInstance &v = step.cs.vertices[i];
    const CompiledVertexType &type = cg.vertexTypes[v.vertexType];
    std::uint64_t *cycles = step.runCycles + step.runOffset[i];
    if (!type.multiVertex)
      cycles[0] = step.vertexCycles[i]; // its part's measurement (or its estimate)
    step.vertexCycles[i] = scheduleVertex(schedule, v, type.multiVertex, cycles, cg.runsOf(type));
  }
  const auto result = schedule.finish();
  for (std::size_t p = 0; p < count; ++p)
    parts[p].tileCycles = parts[p].busyCycles = 0;
  parts[0].tileCycles = result.tileCycles;
  parts[0].busyCycles = result.busyThreadCycles + result.supervisorCycles;
}

} // namespace poplar::detail
