// Text form of the tile ISA: one-line disassembly and an assembler that reads it back.
//
// Syntax (one instruction per line; `;`, `#` or `//` start a comment):
//   label:                      a label; may share its line with an instruction
//   add r3, r1, r2              registers r0..r63, or zero, fp, gp, sp, lr
//   movi r4, 0x40000            immediates: decimal, 0x hex, negative; 1.5f is an f32 pattern
//   ld32 r5, [r1+8]             base+offset ([r1], [r1-4] too)
//   st32p r5, [r1+=4]           post-increment
//   brnz r5, loop               targets: a label, @N (absolute pc) or .+N / .-N (relative)
//   f32v2add r4, r6, r8         pairs are named by their even register
// disassemble() prints branch targets as @N, so its output assembles back to the same word.
#pragma once

#include "isa/Isa.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace poplar::isa {

// One line for `insn` at `pc`, e.g. "ld32 r5, [r1+8]" or "brz r3, @17".
std::string disassemble(const Insn &insn, uint32_t pc);
// As above for a raw word; an undecodable word prints as ".word 0x...".
std::string disassembleWord(uint64_t word, uint32_t pc);
// Name of a register as disassembly prints it.
std::string regName(unsigned reg);

struct AsmResult {
  std::vector<uint64_t> words;
  std::map<std::string, uint32_t> labels; // label -> pc
  std::string error;                      // "line N: message"; empty on success
  bool ok() const { return error.empty(); }
};

// Assembles a whole program. `.word 0x...` emits a raw word (for testing bad encodings).
AsmResult assemble(std::string_view text);

} // namespace poplar::isa
