// Stack frame: slot offsets, prologue and epilogues, callee-saved and lr saves.
#include "passes/MachinePasses.hpp"

#include <iterator>
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
        if (!f.vertexEntry && r >= poplar::isa::kFirstCalleeSaved &&
            r <= poplar::isa::kLastCalleeSaved)
          saved.insert(r);
    }
  // A call overwrites lr; the entry function's lr (kExitLr) must survive to its ret.
  if (calls)
    saved.insert(poplar::isa::kRegLr);

  // An even register saved with the one after it shares a 64-bit slot: one st64 and one ld64
  // (a worker that saves 26 registers spends 26 cycles on them, not 52).
  struct Save {
    Reg reg;
    bool pair;
    int slot;
  };
  std::vector<Save> saves;
  for (auto it = saved.begin(); it != saved.end(); ++it) {
    const Reg r = *it;
    const bool pair = r % 2 == 0 && r != poplar::isa::kRegLr && std::next(it) != saved.end() &&
                      *std::next(it) == r + 1;
    saves.push_back({r, pair, pair ? f.newSlot(8, 8) : f.newSlot(4, 4)});
    if (pair)
      ++it;
  }

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
    for (const Save &v : saves)
      prologue.push_back(make(v.pair ? Opcode::St64 : Opcode::St32, 0, poplar::isa::kRegSp, v.reg,
                              f.slots[v.slot].offset));
    auto &entry = f.blocks.front()->insts;
    for (mir::Inst &i : prologue)
      i.loc = f.loc;
    entry.insert(entry.begin(), prologue.begin(), prologue.end());

    for (auto &b : f.blocks) {
      std::vector<mir::Inst> out;
      for (const mir::Inst &i : b->insts) {
        if (i.op == Opcode::Ret) {
          for (const Save &v : saves)
            out.push_back(make(v.pair ? Opcode::Ld64 : Opcode::Ld32, v.reg, poplar::isa::kRegSp, 0,
                               f.slots[v.slot].offset));
          out.push_back(make(Opcode::Spadd, 0, 0, 0, static_cast<std::int32_t>(f.frameSize)));
          for (auto it = out.end() - saves.size() - 1; it != out.end(); ++it)
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
