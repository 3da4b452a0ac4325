// Branch layout: jump threading through blocks that only branch on, removal of blocks no
// branch reaches, and falling through to the next block instead of jumping to it.
#include "passes/MachinePasses.hpp"

#include <set>

namespace popc {

using poplar::isa::Opcode;

namespace {

/// Where a branch to `b` really goes: past blocks that hold nothing but `br X`.
mir::Block *finalTarget(mir::Block *b) {
  std::set<mir::Block *> seen;
  while (b->insts.size() == 1 && b->insts[0].op == Opcode::Br && seen.insert(b).second)
    b = b->insts[0].target;
  return b;
}

} // namespace

void layoutBlocks(mir::Function &f) {
  // Thread branches, then drop the blocks nothing branches to: every block still ends in a
  // br, ret or trap here, so none is reached by falling through.
  std::set<mir::Block *> targeted;
  for (auto &b : f.blocks)
    for (mir::Inst &i : b->insts)
      if (i.target) {
        i.target = finalTarget(i.target);
        targeted.insert(i.target);
      }
  for (std::size_t k = f.blocks.size(); k-- > 1;)
    if (!targeted.count(f.blocks[k].get()))
      f.blocks.erase(f.blocks.begin() + k);

  for (std::size_t k = 0; k < f.blocks.size(); ++k) {
    mir::Block *next = k + 1 < f.blocks.size() ? f.blocks[k + 1].get() : nullptr;
    auto &insts = f.blocks[k]->insts;
    if (insts.empty() || insts.back().op != Opcode::Br || insts.back().target != next)
      continue;
    insts.pop_back();
    // brnz c, next; (fell through to) X  ==  brz c, X ... is handled below when the
    // conditional branch now jumps to the next block.
    if (!insts.empty() && insts.back().op == Opcode::Brnz && insts.back().target == next)
      insts.pop_back();
  }
  for (std::size_t k = 0; k + 1 < f.blocks.size(); ++k) {
    mir::Block *next = f.blocks[k + 1].get();
    auto &insts = f.blocks[k]->insts;
    std::size_t n = insts.size();
    if (n >= 2 && insts[n - 2].op == Opcode::Brnz && insts[n - 2].target == next &&
        insts[n - 1].op == Opcode::Br) {
      insts[n - 2].op = Opcode::Brz;
      insts[n - 2].target = insts[n - 1].target;
      insts.pop_back();
    }
  }
}

} // namespace popc
