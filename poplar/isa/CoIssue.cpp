// The bundle rule of the cycle model: which adjacent instructions issue in one thread cycle.
#include "isa/CoIssue.hpp"

#include <optional>

namespace poplar::isa {

namespace {

// Registers as a bit set; r0 is left out (it reads zero and drops writes, so it orders
// nothing).
uint64_t regs(uint8_t reg, bool pair) {
  const uint64_t bits = (pair ? 3ull : 1ull) << reg;
  return bits & ~(1ull << kRegZero);
}

uint64_t written(const Insn &in) {
  const OpcodeInfo &oi = info(in.op);
  uint64_t w = 0;
  if (usesRd(oi.format))
    w |= regs(in.rd, oi.flags & PD);
  if (oi.format == Format::LoadPost || oi.format == Format::StorePost)
    w |= regs(in.ra, false); // the post-incremented base
  return w;
}

uint64_t touched(const Insn &in) {
  const OpcodeInfo &oi = info(in.op);
  uint64_t r = written(in);
  if (usesRa(oi.format))
    r |= regs(in.ra, oi.flags & PA);
  if (usesRb(oi.format))
    r |= regs(in.rb, oi.flags & PB);
  if (usesRc(oi.format))
    r |= regs(in.rc, oi.flags & PC);
  return r;
}

} // namespace

bool coIssues(const Insn &first, const Insn &second) {
  const Pipe a = pipe(first.op), b = pipe(second.op);
  if (a == Pipe::Solo || b == Pipe::Solo || a == b)
    return false;
  return (written(first) & touched(second)) == 0;
}

std::vector<bool> bundleSeconds(const uint64_t *words, size_t numWords) {
  std::vector<std::optional<Insn>> insns(numWords);
  // Where a bundle may not end: branch targets and the word after a rpt body (the body's last
  // word is followed by its first on every pass but the last).
  std::vector<bool> entered(numWords + 1, false);
  for (size_t pc = 0; pc < numWords; ++pc) {
    insns[pc] = decode(words[pc]);
    if (!insns[pc])
      continue;
    const Format f = info(insns[pc]->op).format;
    int64_t mark = -1;
    if (f == Format::Jump || f == Format::AJump)
      mark = int64_t(pc) + insns[pc]->imm;
    else if (insns[pc]->op == Opcode::Rpt)
      mark = int64_t(pc) + insns[pc]->imm + 1;
    if (mark >= 0 && mark < int64_t(numWords))
      entered[size_t(mark)] = true;
  }
  std::vector<bool> second(numWords, false);
  for (size_t pc = 1; pc < numWords; ++pc)
    if (insns[pc - 1] && insns[pc] && !second[pc - 1] && !entered[pc] &&
        coIssues(*insns[pc - 1], *insns[pc]))
      second[pc] = true;
  return second;
}

} // namespace poplar::isa
