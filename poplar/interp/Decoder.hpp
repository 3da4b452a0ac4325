// Decodes tile ISA words once into the dense form the interpreter dispatches on.
#pragma once

#include "isa/Isa.hpp"

#include <cstdint>
#include <vector>

namespace poplar::interp {

// Internal operations that follow the ISA opcodes in the dispatch table.
constexpr uint16_t kOpBad = isa::kNumOpcodes;         // traps BadInstruction when executed
constexpr uint16_t kOpRptLoop = isa::kNumOpcodes + 1; // end of a rpt body copy (free, uncounted)
constexpr uint16_t kNumInternalOps = isa::kNumOpcodes + 2;

// Register slot that absorbs writes to r0, so handlers never test for the zero register.
constexpr uint8_t kSinkReg = isa::kNumRegs;

// One decoded instruction. Branch and call targets hold an absolute index into the decoded
// array. A rpt's imm holds the index of its kOpRptLoop, whose imm is the start of a private
// copy of the body and whose pc is the index to continue at when the loop ends; the copy lets
// the common path run without a per-instruction "end of rpt body?" test.
struct DecodedInsn {
  uint16_t op;     // isa::Opcode value, kOpBad or kOpRptLoop
  uint16_t cycles; // thread cycles, from Opcodes.def
  uint8_t rd, ra, rb, rc;
  uint32_t imm;
  uint32_t pc; // pc of the source instruction, reported on traps
};
static_assert(sizeof(DecodedInsn) == 16, "keep decoded instructions one per 16 bytes");

struct DecodedCode {
  // [0, numWords): one entry per word, so index == pc; [numWords] is a kOpBad that catches
  // falling off the end; then rpt body copies.
  std::vector<DecodedInsn> insns;
  uint32_t numWords = 0;
};

// Never fails: words that do not decode, branches out of the code and malformed rpt bodies
// become kOpBad, which traps only if executed (as hardware raises on issue, not on load).
DecodedCode decodeCode(const uint64_t *words, size_t numWords);
inline DecodedCode decodeCode(const std::vector<uint64_t> &words) {
  return decodeCode(words.data(), words.size());
}

} // namespace poplar::interp
