// Test helpers: assemble a program, run it on a small tile memory with either dispatcher.
#pragma once

#include "interp/Interpreter.hpp"
#include "isa/Asm.hpp"
#include "isa/Half.hpp"

#include <gtest/gtest.h>

#include <cstring>
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
  RunResult run(const std::string &text, Dispatch dispatch, uint32_t entry = 0) {
    auto words = assembleOrDie(text);
    auto code = interp::decodeCode(words);
    return interp::execute(code, entry, tile(), state, budget, dispatch);
  }
};

inline const char *dispatchName(const testing::TestParamInfo<Dispatch> &info) {
  return info.param == Dispatch::ComputedGoto ? "Goto" : "Switch";
}

} // namespace poplar::isatest
