// Post-increment addressing: `ld32 x, [p+0] ... addi q, p, k` becomes `ld32p x, [p+=k] ...
// mov q, p` when p dies at the addi, so a pointer that steps through an array costs no add.
#include "passes/Liveness.hpp"
#include "passes/MachinePasses.hpp"

#include <algorithm>
#include <optional>

namespace popc {

using mir::Reg;
using poplar::isa::Opcode;

namespace {

/// The post-increment form of a load or store with a [base+imm] address, if the ISA has one.
std::optional<Opcode> postIncrementForm(Opcode op) {
  switch (op) {
  case Opcode::Ld8s:
    return Opcode::Ld8sp;
  case Opcode::Ld8u:
    return Opcode::Ld8up;
  case Opcode::Ld16s:
    return Opcode::Ld16sp;
  case Opcode::Ld16u:
    return Opcode::Ld16up;
  case Opcode::Ld32:
    return Opcode::Ld32p;
  case Opcode::Ld64:
    return Opcode::Ld64p;
  case Opcode::Ldh:
    return Opcode::Ldhp;
  case Opcode::St8:
    return Opcode::St8p;
  case Opcode::St16:
    return Opcode::St16p;
  case Opcode::St32:
    return Opcode::St32p;
  case Opcode::St64:
    return Opcode::St64p;
  case Opcode::Sth:
    return Opcode::Sthp;
  default:
    return std::nullopt;
  }
}

bool reads(const mir::Inst &i, Reg r) {
  std::vector<Reg> uses;
  mir::usesOf(i, uses);
  return std::find(uses.begin(), uses.end(), r) != uses.end();
}

bool writes(const mir::Inst &i, Reg r) {
  std::vector<Reg> defs;
  mir::defsOf(i, defs);
  return std::find(defs.begin(), defs.end(), r) != defs.end();
}

/// Whether the loaded value (rd, or rd:2) of a load is r.
bool writesValue(const mir::Inst &load, Reg r) {
  return load.rd == r || (mir::isPairOperand(load, &load.rd) && load.rd + 1 == r);
}

/// Whether the stored value (rb, or rb:2) of a store is r.
bool readsValue(const mir::Inst &store, Reg r) {
  return store.rb == r || (mir::isPairOperand(store, &store.rb) && store.rb + 1 == r);
}

} // namespace

void formPostIncrement(mir::Function &f) {
  std::vector<llvm::BitVector> liveOut = virtualLiveOut(f);
  for (std::size_t k = 0; k < f.blocks.size(); ++k) {
    auto &insts = f.blocks[k]->insts;
    for (std::size_t a = 0; a < insts.size(); ++a) {
      mir::Inst &access = insts[a];
      std::optional<Opcode> post = postIncrementForm(access.op);
      Reg p = access.ra;
      bool isLoad = poplar::isa::info(access.op).format == poplar::isa::Format::Load;
      // The base may not be the value loaded or stored (either half of a pair).
      if (!post || access.imm != 0 || access.slot >= 0 || !mir::isVirtual(p) ||
          (isLoad ? writesValue(access, p) : readsValue(access, p)))
        continue;
      // The increment: the next instruction that touches p, an addi from p.
      std::size_t inc = a + 1;
      while (inc < insts.size() && !reads(insts[inc], p) && !writes(insts[inc], p))
        ++inc;
      if (inc == insts.size() || insts[inc].op != Opcode::Addi || insts[inc].ra != p ||
          insts[inc].rd == p)
        continue;
      // p must die there: no later read in the block before a redefinition, not live out.
      bool diesHere = !liveOut[k].test(p);
      for (std::size_t j = inc + 1; j < insts.size(); ++j) {
        if (reads(insts[j], p)) {
          diesHere = false;
          break;
        }
        if (writes(insts[j], p)) {
          diesHere = true;
          break;
        }
      }
      if (!diesHere)
        continue;
      access.op = *post;
      access.imm = insts[inc].imm;
      insts[inc].op = Opcode::Mov;
      insts[inc].imm = 0;
    }
  }
}

} // namespace popc
