// Stack frame: slot offsets, prologue and epilogues, callee-saved and lr saves.
#include "passes/MachinePasses.hpp"

#include <set>

namespace popc {

using mir::Reg;
using poplar::isa::Opcode;

void layoutFrame(mir::Function &f) {
  std::set<Reg> saved;
  bool calls = false;
  std::vector<Reg> defs;
  for (auto &b : f.blocks)
    for (const mir::Inst &i : b->insts) {
      if (i.op == Opcode::Call) {
        calls = true;
        continue; // its clobbers are the caller-saved registers
      }
      defs.clear();
      mir::defsOf(i, defs);
      for (Reg r : defs)
        if (r >= poplar::isa::kFirstCalleeSaved && r <= poplar::isa::kLastCalleeSaved)
          saved.insert(r);
    }
  // A call overwrites lr; the entry function's lr (kExitLr) must survive to its ret.
  if (calls)
    saved.insert(poplar::isa::kRegLr);

  std::vector<std::pair<Reg, int>> saveSlots;
  for (Reg r : saved)
    saveSlots.push_back({r, f.newSlot(4, 4)});

  std::uint32_t size = 0;
  for (mir::FrameSlot &s : f.slots) {
    size = (size + s.align - 1) / s.align * s.align;
    s.offset = static_cast<std::int32_t>(size);
    size += s.size;
  }
  f.frameSize = (size + 7) / 8 * 8; // sp stays 8-byte aligned

  auto make = [](Opcode op, Reg rd, Reg ra, Reg rb, std::int32_t imm) {
    mir::Inst i;
    i.op = op;
    i.rd = rd;
    i.ra = ra;
    i.rb = rb;
    i.imm = imm;
    return i;
  };
  if (f.frameSize) {
    std::vector<mir::Inst> prologue = {
        make(Opcode::Spadd, 0, 0, 0, -static_cast<std::int32_t>(f.frameSize))};
    for (auto [r, slot] : saveSlots)
      prologue.push_back(make(Opcode::St32, 0, poplar::isa::kRegSp, r, f.slots[slot].offset));
    auto &entry = f.blocks.front()->insts;
    for (mir::Inst &i : prologue)
      i.loc = f.loc;
    entry.insert(entry.begin(), prologue.begin(), prologue.end());

    for (auto &b : f.blocks) {
      std::vector<mir::Inst> out;
      for (const mir::Inst &i : b->insts) {
        if (i.op == Opcode::Ret) {
          for (auto [r, slot] : saveSlots)
            out.push_back(make(Opcode::Ld32, r, poplar::isa::kRegSp, 0, f.slots[slot].offset));
          out.push_back(make(Opcode::Spadd, 0, 0, 0, static_cast<std::int32_t>(f.frameSize)));
          for (auto it = out.end() - saveSlots.size() - 1; it != out.end(); ++it)
            it->loc = i.loc;
        }
        out.push_back(i);
      }
      b->insts = std::move(out);
    }
  }
  for (auto &b : f.blocks)
    for (mir::Inst &i : b->insts)
      if (i.slot >= 0) {
        i.imm += f.slots[i.slot].offset;
        i.slot = -1;
      }
}

} // namespace popc
