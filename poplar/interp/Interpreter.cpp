// Interpreter entry points: the calling convention, the choice of dispatcher, trap names.
#include "interp/Interpreter.hpp"

#include "interp/Enter.hpp"
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

RunResult run(const DecodedCode &code, uint32_t entryPc, TileMemory mem, const Launch &launch,
              WorkerState &state, const NativeCode *native) {
  if (native && entryPc < code.numWords) {
    const ops::Window made = ops::window(mem);
    NativeFrame frame;
    frame.window = &made;
    frame.memory = &mem;
    launchNative(*native, code, launch, state, frame);
    return nativeResult(frame, *native, code, mem, state, launch.budget);
  }
  enter(code, launch, state);
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
