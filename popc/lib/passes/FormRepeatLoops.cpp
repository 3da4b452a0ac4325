// Zero-overhead loops: a single-block loop closed by `brnzdec r, self` becomes
// `addi r, r, 1; rpt r, n` in front of its body, so an iteration costs only its body. A loop
// entered by branches (LLVM often lays a loop's exit code between its guard and the loop) gets
// a block of its own for the two, which the branches then enter.
#include "passes/MachinePasses.hpp"

#include <algorithm>
#include <memory>

namespace popc {

using poplar::isa::Opcode;

void formRepeatLoops(mir::Function &f) {
  for (std::size_t k = 1; k < f.blocks.size(); ++k) {
    mir::Block &body = *f.blocks[k];
    mir::Block &before = *f.blocks[k - 1];
    auto &insts = body.insts;
    // The closing brnzdec, optionally followed by the branch out of the loop.
    std::size_t close = insts.size();
    for (std::size_t j = insts.size(); j-- > 0 && insts.size() - j <= 2;)
      if (insts[j].op == Opcode::Brnzdec && insts[j].target == &body) {
        close = j;
        break;
      }
    if (close == insts.size() || close == 0 ||
        (close + 1 < insts.size() && insts[close + 1].op != Opcode::Br))
      continue;
    mir::Reg counter = insts[close].ra;
    bool ok = true;
    std::vector<mir::Reg> uses, defs;
    for (std::size_t j = 0; j < close && ok; ++j) {
      uses.clear();
      defs.clear();
      mir::usesOf(insts[j], uses);
      mir::defsOf(insts[j], defs);
      ok = !(poplar::isa::info(insts[j].op).flags & poplar::isa::CTL) &&
           std::find(uses.begin(), uses.end(), counter) == uses.end() &&
           std::find(defs.begin(), defs.end(), counter) == defs.end();
    }
    if (!ok)
      continue;
    std::vector<mir::Inst *> entries;
    for (const auto &b : f.blocks)
      for (mir::Inst &i : b->insts)
        if (i.target == &body && &i != &insts[close])
          entries.push_back(&i);
    // Whether the block before falls through into the body (it may end in a conditional branch).
    const Opcode last = before.insts.empty() ? Opcode::Nop : before.insts.back().op;
    const bool fallsIn =
        last != Opcode::Br && last != Opcode::Ret && last != Opcode::Trap && last != Opcode::Exit;
    mir::Block *head = &before;
    if (!entries.empty()) {
      auto block = std::make_unique<mir::Block>();
      block->name = body.name + ".rpt";
      head = block.get();
      for (mir::Inst *i : entries)
        i->target = head;
      f.blocks.insert(f.blocks.begin() + k, std::move(block));
      ++k; // the body moved up one
    } else if (!fallsIn) {
      continue; // nothing enters the loop
    }
    mir::Inst inc = insts[close];
    inc.op = Opcode::Addi;
    inc.rd = counter;
    inc.ra = counter;
    inc.imm = 1;
    inc.target = nullptr;
    mir::Inst rpt = inc;
    rpt.op = Opcode::Rpt;
    rpt.rd = 0;
    rpt.imm = static_cast<std::int32_t>(close);
    head->insts.push_back(inc);
    head->insts.push_back(rpt);
    insts.erase(insts.begin() + close);
  }
}

} // namespace popc
