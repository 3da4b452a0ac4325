// Test helpers: assemble a program, run it on a small tile memory with either dispatcher or the
// native tier.
#pragma once

#include "interp/Interpreter.hpp"
#include "interp/MemCheck.hpp"
#include "interp/NativeTier.hpp"
#include "isa/Asm.hpp"
#include "isa/Half.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace poplar::isatest {

using interp::Dispatch;
using interp::RunResult;
using interp::Trap;

constexpr uint32_t kBase = isa::kTileMemoryBase;

inline uint32_t F(float x) { return isa::floatToBits(x); }
inline float AsF(uint32_t u) { return isa::bitsToFloat(u); }

inline std::vector<uint64_t> assembleOrDie(const std::string &text) {
  isa::AsmResult r = isa::assemble(text);
  EXPECT_TRUE(r.ok()) << r.error << "\n" << text;
  return r.words;
}

// The native tier of this build (the test is built with the library's path), compiled for
// `entry`; the opcodes in `interpreted` are left to the interpreter. Fails the test if the
// library does not load or the compilation fails.
inline std::unique_ptr<interp::NativeCode>
compileNativeOrFail(const interp::DecodedCode &code, uint32_t entry = 0,
                    const std::vector<isa::Opcode> &interpreted = {}) {
  setenv("POPLAR_NATIVE_LIBRARY", POPSDK_NATIVE_LIBRARY, 0);
  std::string error;
  auto native = interp::compileNative(code, entry, error, interpreted);
  EXPECT_TRUE(native) << error;
  return native;
}

// Where a test program runs: one of the interpreter's two dispatchers, the native tier (which
// hands what it does not translate to the computed-goto dispatcher), or the memory-checked
// loop with the whole tile memory allowed (so it must behave as the others).
enum class Tier { Goto, Switch, Native, MemChecked };

// execute() on `tier`. An entry outside the code never reaches native code (the run traps
// BadJump first), so the native tier is compiled at pc 0 for it.
inline RunResult executeOn(Tier tier, const interp::DecodedCode &code, uint32_t entry,
                           interp::TileMemory mem, interp::WorkerState &state, uint64_t budget) {
  if (tier == Tier::MemChecked) {
    interp::AccessMap all;
    all.allow(mem.base, mem.size, true);
    all.seal();
    return interp::execute(code, entry, mem, state, budget, all);
  }
  if (tier != Tier::Native)
    return interp::execute(code, entry, mem, state, budget,
                           tier == Tier::Goto ? Dispatch::ComputedGoto : Dispatch::Switch);
  const auto native = compileNativeOrFail(code, entry < code.numWords ? entry : 0);
  if (!native)
    return RunResult{Trap::BadInstruction, ~0u};
  return interp::executeNative(*native, code, entry, mem, state, budget);
}

// A worker with 256 bytes of tile memory at kBase, filled with a recognisable pattern.
struct Machine {
  std::vector<uint8_t> memory = std::vector<uint8_t>(256);
  interp::WorkerState state;
  uint64_t budget = 1'000'000;

  Machine() {
    for (size_t i = 0; i < memory.size(); ++i)
      memory[i] = uint8_t(i * 7 + 3);
    state.stackLo = kBase + 128;
    state.stackHi = kBase + 256;
    state.regs[isa::kRegSp] = state.stackHi;
    state.regs[isa::kRegLr] = isa::kExitLr;
  }
  interp::TileMemory tile() { return {kBase, memory.data(), uint32_t(memory.size())}; }
  uint32_t &r(unsigned i) { return state.regs[i]; }
  uint32_t word(uint32_t addr) const {
    uint32_t v;
    std::memcpy(&v, memory.data() + (addr - kBase), 4);
    return v;
  }
  RunResult run(const std::string &text, Tier tier, uint32_t entry = 0) {
    auto words = assembleOrDie(text);
    auto code = interp::decodeCode(words);
    return executeOn(tier, code, entry, tile(), state, budget);
  }
};

inline const char *tierName(const testing::TestParamInfo<Tier> &info) {
  switch (info.param) {
  case Tier::Goto:
    return "Goto";
  case Tier::Switch:
    return "Switch";
  case Tier::Native:
    return "Native";
  default:
    return "MemChecked";
  }
}
inline const auto kAllTiers =
    testing::Values(Tier::Goto, Tier::Switch, Tier::Native, Tier::MemChecked);

} // namespace poplar::isatest
