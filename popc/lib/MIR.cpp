// Register operands of machine instructions (explicit and implicit) and a debug printer.
#include "MIR.hpp"

#include "isa/Asm.hpp"

namespace popc::mir {

using poplar::isa::Format;
using poplar::isa::Opcode;

static bool writesRa(const Inst &i) {
  Format f = poplar::isa::info(i.op).format;
  return f == Format::LoadPost || f == Format::StorePost || i.op == Opcode::Brnzdec;
}

void useOperands(Inst &i, std::vector<Reg *> &uses) {
  Format f = poplar::isa::info(i.op).format;
  if (poplar::isa::usesRa(f))
    uses.push_back(&i.ra);
  if (poplar::isa::usesRb(f))
    uses.push_back(&i.rb);
  if (poplar::isa::usesRc(f))
    uses.push_back(&i.rc);
}

void defOperands(Inst &i, std::vector<Reg *> &defs) {
  Format f = poplar::isa::info(i.op).format;
  if (poplar::isa::usesRd(f))
    defs.push_back(&i.rd);
  if (writesRa(i))
    defs.push_back(&i.ra);
}

/// Whether the operand field `r` of `i` names a register pair (its head).
bool isPairOperand(const Inst &i, const Reg *r) {
  std::uint8_t flags = poplar::isa::info(i.op).flags;
  return (r == &i.rd && (flags & poplar::isa::PD)) || (r == &i.ra && (flags & poplar::isa::PA)) ||
         (r == &i.rb && (flags & poplar::isa::PB)) || (r == &i.rc && (flags & poplar::isa::PC));
}

void usesOf(const Inst &i, std::vector<Reg> &uses) {
  std::vector<Reg *> ops;
  useOperands(const_cast<Inst &>(i), ops);
  for (Reg *r : ops) {
    uses.push_back(*r);
    if (isPairOperand(i, r))
      uses.push_back(*r + 1);
  }
  if (i.op == Opcode::Call)
    for (unsigned a = 0; a < i.callArgs; ++a)
      uses.push_back(1 + a);
  if (i.op == Opcode::Ret && i.callResult)
    uses.push_back(1);
  if (i.op == Opcode::Ret && i.wideResult)
    uses.push_back(2);
}

void defsOf(const Inst &i, std::vector<Reg> &defs) {
  std::vector<Reg *> ops;
  defOperands(const_cast<Inst &>(i), ops);
  for (Reg *r : ops) {
    defs.push_back(*r);
    if (isPairOperand(i, r))
      defs.push_back(*r + 1);
  }
  if (i.op == Opcode::Call) {
    // A call may change every caller-saved register, and lr.
    for (Reg r = FirstCallerSaved; r <= LastCallerSaved; ++r)
      defs.push_back(r);
    defs.push_back(poplar::isa::kRegLr);
  }
}

static std::string reg(Reg r) {
  return isVirtual(r) ? "%" + std::to_string(r) : poplar::isa::regName(r);
}

std::string print(const Function &f) {
  std::string s = f.name + ":\n";
  for (const auto &b : f.blocks) {
    s += " " + b->name + ":\n";
    for (const Inst &i : b->insts) {
      s += "    " + std::string(poplar::isa::info(i.op).mnemonic);
      std::vector<Reg> defs, uses;
      defsOf(i, defs);
      usesOf(i, uses);
      if (i.op != Opcode::Call) {
        for (Reg r : defs)
          s += " " + reg(r);
        s += " <-";
        for (Reg r : uses)
          s += " " + reg(r);
      }
      s += " imm=" + std::to_string(i.imm);
      if (i.slot >= 0)
        s += " slot" + std::to_string(i.slot);
      if (i.target)
        s += " ->" + i.target->name;
      if (i.callee)
        s += " " + i.callee->name;
      s += "\n";
    }
  }
  return s;
}

} // namespace popc::mir
