// Dead-code elimination on machine IR over virtual registers.
#include "passes/MachinePasses.hpp"

#include <algorithm>
#include <map>

namespace popc {

using poplar::isa::Format;
using poplar::isa::Opcode;

static bool hasSideEffects(const mir::Inst &i) {
  Format f = poplar::isa::info(i.op).format;
  return f == Format::Store || f == Format::StorePost || f == Format::LoadPost ||
         (poplar::isa::info(i.op).flags & poplar::isa::CTL) || i.op == Opcode::Spadd ||
         i.op == Opcode::Print || // writes to the host
         // AMP state and passes (their memory effects are not loads or stores here)
         i.op == Opcode::Ampcfg || i.op == Opcode::Ampw32 || i.op == Opcode::Ampw16 ||
         i.op == Opcode::Amp32 || i.op == Opcode::Amp16 || i.op == Opcode::Amp16h ||
         // Division by zero traps, so it is observable.
         i.op == Opcode::Divs || i.op == Opcode::Divu || i.op == Opcode::Rems ||
         i.op == Opcode::Remu || i.op == Opcode::Divsi || i.op == Opcode::Divui ||
         i.op == Opcode::Remsi || i.op == Opcode::Remui;
}

/// How many times each register is read.
static std::map<mir::Reg, unsigned> readCounts(const mir::Function &f) {
  std::map<mir::Reg, unsigned> reads;
  std::vector<mir::Reg> uses;
  for (auto &b : f.blocks)
    for (const mir::Inst &i : b->insts) {
      uses.clear();
      mir::usesOf(i, uses);
      for (mir::Reg r : uses)
        ++reads[r];
    }
  return reads;
}

void removeDeadCode(mir::Function &f) {
  for (bool changed = true; changed;) {
    changed = false;
    const std::map<mir::Reg, unsigned> reads = readCounts(f);
    std::vector<mir::Reg> defs;
    for (auto &b : f.blocks) {
      auto dead = [&](const mir::Inst &i) {
        if (hasSideEffects(i))
          return false;
        defs.clear();
        mir::defsOf(i, defs);
        return !defs.empty() && std::all_of(defs.begin(), defs.end(), [&](mir::Reg r) {
          return mir::isVirtual(r) && !reads.count(r);
        });
      };
      auto end = std::remove_if(b->insts.begin(), b->insts.end(), dead);
      changed |= end != b->insts.end();
      b->insts.erase(end, b->insts.end());
    }
  }
  // What is left writes its unread result to the zero register (writes there are discarded), so
  // the result takes no register: an AMP instruction's count, a divide kept for its trap. Else
  // the allocator may reuse a register for it that a loop-invariant value could have kept.
  const std::map<mir::Reg, unsigned> reads = readCounts(f);
  std::vector<mir::Reg> defs;
  for (auto &b : f.blocks)
    for (mir::Inst &i : b->insts) {
      const Format format = poplar::isa::info(i.op).format;
      if (!hasSideEffects(i) || (poplar::isa::info(i.op).flags & poplar::isa::PD) ||
          format == Format::LoadPost || format == Format::StorePost)
        continue;
      defs.clear();
      mir::defsOf(i, defs);
      if (defs.size() == 1 && defs[0] == i.rd && mir::isVirtual(i.rd) && !reads.count(i.rd))
        i.rd = poplar::isa::kRegZero;
    }
}

} // namespace popc
