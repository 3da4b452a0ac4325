// The native tier: a vertex entry's ISA compiled to host code by libpoplar_native.so, which is
// loaded with dlopen on first use (so neither libpoplar nor a program that never asks for the
// tier links or loads LLVM). The interpreter stays the reference: it finishes any run the
// native code hands over (a block without a translation, or a budget about to run out).
#pragma once

#include "interp/Enter.hpp"
#include "interp/Interpreter.hpp"
#include "interp/NativeAbi.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace poplar::interp {

// One entry pc of one DecodedCode, compiled. Frees its machine code when destroyed.
class NativeCode {
public:
  NativeCode(const NativeCompiled &compiled, PoplarNativeReleaseFn release);
  ~NativeCode();
  NativeCode(const NativeCode &) = delete;
  NativeCode &operator=(const NativeCode &) = delete;

  NativeEntry entry() const { return compiled_.entry; }
  double compileSeconds() const { return compiled_.compileSeconds; }
  std::uint32_t translated() const { return compiled_.translated; }
  std::uint32_t handedOver() const { return compiled_.handedOver; }
  std::uint64_t written() const { return compiled_.written; } // NativeCompiled::written

private:
  NativeCompiled compiled_;
  PoplarNativeReleaseFn release_;
};

// Where the library is looked for: $POPLAR_NATIVE_LIBRARY if set, else libpoplar_native.so in
// the directory of the binary that holds this code (libpoplar.so, beside which it is installed).
std::string nativeLibraryPath();

// Whether the library loads (once per process); if not, `why` says what failed.
bool nativeTierAvailable(std::string *why = nullptr);

// Compiles the code reachable from `entryPc`; the opcodes in `interpreted` are left to the
// interpreter (tests hand over with them); `name` is what profilers call the code
// (docs/native-tier.md, POPLAR_PERF_MAP). Returns null, with `error` set, if the library does not
// load or the compilation fails. Thread-safe.
std::unique_ptr<NativeCode> compileNative(const DecodedCode &code, std::uint32_t entryPc,
                                          std::string &error,
                                          const std::vector<isa::Opcode> &interpreted = {},
                                          const std::string &name = {});

namespace detail {
// The interpreter's run from where a compiled entry handed over (NativeFrame::index).
RunResult nativeHandOver(const NativeFrame &frame, const DecodedCode &code, TileMemory mem,
                         WorkerState &state, std::uint64_t budget);
} // namespace detail

// Sets what a compiled entry reads of `frame` for a run; its window and memory are the
// caller's, which a caller running many vertices on one tile sets once. The entry writes index,
// status, result and address on every return, so they are not set here.
inline void startFrame(NativeFrame &frame, WorkerState &state, std::uint64_t budget, bool fresh) {
  frame.state = &state;
  frame.left = budget;
  frame.cycles = 0;
  frame.fresh = fresh;
}

// Runs `native` (compiled for `code` at an entry pc < code.numWords) from the calling
// convention of `launch` in `frame`, whose window and memory the caller set; nativeResult
// gives the result. `state`'s registers are not cleared first (NativeFrame::fresh): what an
// earlier run left in them is never read.
inline void launchNative(const NativeCode &native, const DecodedCode &code, const Launch &launch,
                         WorkerState &state, NativeFrame &frame) {
  enterFresh(code, launch, state);
  startFrame(frame, state, launch.budget, true);
  native.entry()(&frame);
}

// Whether a run of `native` leaves the calling convention of its launch in the state but for
// r1 and r2 (the registers a vertex's code most often writes): true unless it writes gp, sp or
// lr, or its code clears AMP state at entry (enterFresh).
inline bool keepsConvention(const NativeCode &native, const DecodedCode &code) {
  constexpr std::uint64_t kept = std::uint64_t(1) << isa::kRegGp | std::uint64_t(1) << isa::kRegSp |
                                 std::uint64_t(1) << isa::kRegLr;
  return !(native.written() & kept) && !code.usesAmp;
}

// As launchNative, for a state that a run of `native` has just left after a launch with the
// same worker, stack and globals, and keepsConvention: only the convention's r1 and r2 are set
// again, and the frame's budget and cycles. The executor's tile loop relaunches consecutive
// vertices of a type so, on a tile and across tiles whose stack is at the same place.
inline void relaunchNative(const NativeCode &native, const Launch &launch, WorkerState &state,
                           NativeFrame &frame) {
  state.regs[isa::kRegArg0] = launch.vertexState;
  state.regs[isa::kRegArg1] = launch.workerId;
  frame.left = launch.budget;
  frame.cycles = 0;
  native.entry()(&frame);
}

// The RunResult of a run of `native` that has returned in `frame`, which the interpreter
// finishes if the native code handed it over (after clearing, in a fresh run, the registers
// the native code left as an earlier run had them).
inline RunResult nativeResult(const NativeFrame &frame, const NativeCode &native,
                              const DecodedCode &code, TileMemory mem, WorkerState &state,
                              std::uint64_t budget) {
  if (frame.status == kNativeHandOver) {
    if (frame.fresh)
      for (unsigned r = 0; r < isa::kNumRegs; ++r)
        if (!conventionRegister(r) && !(native.written() >> r & 1))
          state.regs[r] = 0;
    return detail::nativeHandOver(frame, code, mem, state, budget);
  }
  RunResult r;
  r.trap = Trap(frame.status);
  r.pc = code.insns[frame.index].pc;
  r.cycles = frame.cycles;
  r.instructions = budget - frame.left;
  r.result = frame.result;
  r.address = frame.address;
  return r;
}

// As execute(), running `native` (compiled for `code` at `entryPc`) and then the interpreter
// from wherever it hands over. Results are those of execute(), bit for bit. `window`, if given,
// is ops::window(mem), made once by a caller that runs many vertices over the same memory.
inline RunResult executeNative(const NativeCode &native, const DecodedCode &code,
                               std::uint32_t entryPc, TileMemory mem, WorkerState &state,
                               std::uint64_t budget, const ops::Window *window = nullptr) {
  if (entryPc >= code.numWords)
    return execute(code, entryPc, mem, state, budget);
  const ops::Window made = window ? *window : ops::window(mem);
  NativeFrame frame;
  frame.window = &made;
  frame.memory = &mem;
  startFrame(frame, state, budget, false);
  native.entry()(&frame);
  return nativeResult(frame, native, code, mem, state, budget);
}

} // namespace poplar::interp
