// The calling convention at a vertex's entry (Interpreter.hpp) written into a reused state:
// inline, since it is most of the launch of a short vertex and the executor's tile loop makes
// it once per vertex.
#pragma once

#include "interp/Interpreter.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

namespace poplar::interp {

namespace detail {
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
} // namespace detail

// Whether the calling convention sets register r at entry (the others start at zero).
constexpr bool conventionRegister(unsigned r) {
  return r == isa::kRegArg0 || r == isa::kRegArg1 || r == isa::kRegGp || r == isa::kRegSp ||
         r == isa::kRegLr;
}

// The calling convention in `state` but for the zeroing of the other registers: what a fresh
// native run (NativeFrame::fresh) needs, which reads those as zero itself.
inline void enterFresh(const DecodedCode &code, const Launch &launch, WorkerState &state) {
  if (code.usesAmp) {
    detail::clearArray(state.acc);
    detail::clearArray(state.weights);
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

// The calling convention (Interpreter.hpp) in `state`, whatever an earlier run left in it.
inline void enter(const DecodedCode &code, const Launch &launch, WorkerState &state) {
  detail::clearArray(state.regs);
  enterFresh(code, launch, state);
}

} // namespace poplar::interp
