// Which adjacent instructions issue together as one bundle (the IPU's main + aux pipelines).
//
// A worker issues a bundle a thread cycle: one instruction of the main pipeline (integer,
// loads and stores) beside one of the aux pipeline (floating point, vectors, AMP) (ipu-model.md
// 2.1). Our words carry no bundle marks, so the cycle model pairs them itself: a 1-cycle main
// and a 1-cycle aux instruction, adjacent, in either order, where the second neither reads nor
// writes a register the first writes (a bundle reads its operands before either half writes,
// so only then does issuing them together give what issuing them in order gives; a second that
// overwrites what the first reads is the software-pipelining idiom of PopLibs' loops). The
// second of a bundle costs nothing. Pairs are taken greedily from the start of every block, and
// never end on a branch target or start the code after a rpt body, so a bundle is only entered
// at its first half and never straddles a loop's end.
#pragma once

#include "isa/Isa.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace poplar::isa {

enum class Pipe : uint8_t { Main, Aux, Solo };

inline constexpr Pipe kGroupPipe[] = {
#define POPLAR_OPGROUP(id, pipe, title, costSource) Pipe::pipe,
#include "isa/Opcodes.def"
};

// The pipeline an instruction issues on: its group's (Opcodes.def), Solo for one that takes
// more than a cycle or touches a register its fields do not name (spadd moves sp). Inline: the
// native tier's library uses it without linking the ISA library.
inline Pipe pipe(Opcode op) {
  const OpcodeInfo &oi = info(op);
  if (oi.cycles != 1 || (oi.flags & CTL) || op == Opcode::Spadd)
    return Pipe::Solo;
  return kGroupPipe[static_cast<unsigned>(group(op))];
}

// Whether `second`, directly after `first`, shares its bundle.
bool coIssues(const Insn &first, const Insn &second);

// For each word of a code object, whether it is the second half of a bundle (costs no cycle).
// Words that do not decode are never paired.
std::vector<bool> bundleSeconds(const uint64_t *words, size_t numWords);

} // namespace poplar::isa
