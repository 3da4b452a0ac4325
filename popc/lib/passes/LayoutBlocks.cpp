// Branch layout: fall through to the next block instead of jumping to it.
#include "passes/MachinePasses.hpp"

namespace popc {

using poplar::isa::Opcode;

void layoutBlocks(mir::Function &f) {
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
