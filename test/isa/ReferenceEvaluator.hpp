// A slow, obviously-correct evaluator of ISA words: the living spec the interpreter is fuzzed
// against.
#pragma once

#include "interp/Interpreter.hpp"

#include <cstdint>
#include <vector>

namespace poplar::isatest {

struct RefState {
  uint32_t r[64] = {};
  float acc[16] = {};
  float w[64] = {};
  // AMP pass: coefficients pw[out][in], shape and strides (ampcfg, ampw32/ampw16).
  float pw[16][16] = {};
  uint32_t passOut = 0, passIn = 0, passInStride = 0, passOutStride = 0;
  uint32_t workerId = 0, stackLo = 0, stackHi = 0;
  uint32_t base = 0;
  std::vector<uint8_t> mem;
};

// Same contract as interp::execute, but straight from the words with no predecoding.
interp::RunResult referenceRun(const std::vector<uint64_t> &words, uint32_t entryPc,
                               RefState &state, uint64_t budget);

// Independent f16 conversions (through double arithmetic, not bit tricks).
uint16_t refFloatToHalf(float f);
float refHalfToFloat(uint16_t h);

} // namespace poplar::isatest
