// Interpreter entry points: the calling convention, the choice of dispatcher, trap names.
#include "interp/Interpreter.hpp"

#include "interp/LoopState.hpp"
#include "interp/NativeTier.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <utility>

namespace poplar::interp {

const char *trapName(Trap trap) {
  switch (trap) {
  case Trap::None:
    return "none";
  case Trap::OutOfBounds:
    return "out-of-bounds access";
  case Trap::Misaligned:
    return "misaligned access";
  case Trap::DivideByZero:
    return "integer division by zero";
  case Trap::BudgetExceeded:
    return "instruction budget exceeded";
  case Trap::BadInstruction:
    return "bad instruction";
  case Trap::BadJump:
    return "jump outside the code";
  case Trap::StackOverflow:
    return "stack overflow";
  case Trap::Explicit:
    return "trap instruction";
  case Trap::AssertionFailed:
    return "assertion failed";
  case Trap::StrayAccess:
    return "stray access";
  }
  return "unknown trap";
}

Dispatch defaultDispatch() {
#if defined(__GNUC__) && !defined(POPLAR_INTERP_SWITCH_DISPATCH)
  return Dispatch::ComputedGoto;
#else
  return Dispatch::Switch;
#endif
}

namespace {

// The trap of an entry pc outside the code.
RunResult badEntry(uint32_t entryPc) {
  RunResult res;
  res.trap = Trap::BadJump;
  res.pc = entryPc;
  return res;
}

} // namespace

RunResult execute(const DecodedCode &code, uint32_t entryPc, TileMemory mem, WorkerState &state,
                  uint64_t budget, Dispatch dispatch) {
  if (entryPc >= code.numWords)
    return badEntry(entryPc);
  return detail::executeFast(code, mem, state, detail::Cursor{entryPc, 0, budget, budget, 0},
                             dispatch);
}

RunResult execute(const DecodedCode &code, uint32_t entryPc, TileMemory mem, WorkerState &state,
                  uint64_t budget, const AccessMap &access) {
  if (entryPc >= code.numWords)
    return badEntry(entryPc);
  return detail::executeMemCheckedFast(code, mem, state,
                                       detail::Cursor{entryPc, 0, budget, budget, 0}, access);
}

RunResult detail::executeFast(const DecodedCode &code, const TileMemory mem, WorkerState &state,
                              Cursor cur, Dispatch dispatch) {
#if defined(__GNUC__)
  if (dispatch == Dispatch::ComputedGoto)
    return executeGoto(code, mem, state, cur);
#endif
  return executeSwitch(code, mem, state, cur);
}

namespace {

// Zeroes `bytes` with 16-byte stores written out, not a loop: GCC turns a loop or a fill of
// this size into `rep stos`, whose start-up (tens of cycles) was a third of a tiny vertex's
// launch.
template <std::size_t... I> inline void clear16(unsigned char *bytes, std::index_sequence<I...>) {
  using Vec = std::uint32_t __attribute__((vector_size(16)));
  const Vec zero{};
  (std::memcpy(bytes + 16 * I, &zero, 16), ...);
}
template <class T> inline void clearArray(T &array) {
  static_assert(sizeof(array) % 8 == 0, "cleared in 16-byte stores and one 8-byte tail");
  auto *bytes = reinterpret_cast<unsigned char *>(&array);
  clear16(bytes, std::make_index_sequence<sizeof(array) / 16>());
  if constexpr (sizeof(array) % 16 != 0) {
    const std::uint64_t zero = 0;
    std::memcpy(bytes + sizeof(array) / 16 * 16, &zero, 8);
  }
}

// The calling convention (Interpreter.hpp) in `state`.
void enter(const DecodedCode &code, const Launch &launch, WorkerState &state) {
  clearArray(state.regs);
  if (code.usesAmp) {
    clearArray(state.acc);
    clearArray(state.weights);
    // A pass reads rows [0, inChans) of amp.w and every load rewrites those rows, so with no
    // channels loaded the coefficients are unobservable and need no clearing (1 KB a run).
    state.amp.outChans = state.amp.inChans = 0;
    state.amp.inStride = state.amp.outStride = 0;
  }
  state.workerId = launch.workerId;
  state.stackLo = launch.stackBase;
  state.stackHi = launch.stackBase + launch.stackSize;
  state.regs[isa::kRegArg0] = launch.vertexState;
  state.regs[isa::kRegArg1] = launch.workerId;
  state.regs[isa::kRegGp] = launch.globals;
  state.regs[isa::kRegSp] = state.stackHi;
  state.regs[isa::kRegLr] = isa::kExitLr;
}

} // namespace

RunResult run(const DecodedCode &code, uint32_t entryPc, TileMemory mem, const Launch &launch,
              WorkerState &state, const NativeCode *native, const ops::Window *window) {
  enter(code, launch, state);
  if (native)
    return executeNative(*native, code, entryPc, mem, state, launch.budget, window);
  return execute(code, entryPc, mem, state, launch.budget);
}

RunResult runChecked(const DecodedCode &code, uint32_t entryPc, TileMemory mem,
                     const Launch &launch, WorkerState &state, const AccessMap &access) {
  enter(code, launch, state);
  return execute(code, entryPc, mem, state, launch.budget, access);
}

RunResult run(const DecodedCode &code, uint32_t entryPc, TileMemory mem, const Launch &launch) {
  WorkerState state;
  return run(code, entryPc, mem, launch, state);
}

} // namespace poplar::interp
