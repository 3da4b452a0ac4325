// Disassembler: one line of text per instruction, in the syntax Asm.cpp reads back.
#include "isa/Asm.hpp"

#include <cstdio>

namespace poplar::isa {

std::string regName(unsigned reg) {
  switch (reg) {
  case kRegZero:
    return "zero";
  case kRegFp:
    return "fp";
  case kRegGp:
    return "gp";
  case kRegSp:
    return "sp";
  case kRegLr:
    return "lr";
  default:
    return "r" + std::to_string(reg);
  }
}

static std::string memOperand(const Insn &in, bool post) {
  std::string s = "[" + regName(in.ra);
  if (post)
    s += "+=" + std::to_string(in.imm);
  else if (in.imm > 0)
    s += "+" + std::to_string(in.imm);
  else if (in.imm < 0)
    s += std::to_string(in.imm);
  return s + "]";
}

static std::string target(const Insn &in, uint32_t pc) {
  return "@" + std::to_string(int64_t(pc) + in.imm);
}

// Immediates print as hex when that is how a human would write them (addresses, masks).
static std::string immText(int32_t imm) {
  if (imm >= -4096 && imm <= 4096)
    return std::to_string(imm);
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", uint32_t(imm));
  return buf;
}

std::string disassemble(const Insn &in, uint32_t pc) {
  const OpcodeInfo &oi = info(in.op);
  std::string s = oi.mnemonic;
  const auto r = [](unsigned reg) { return regName(reg); };
  switch (oi.format) {
  case Format::None:
    return s;
  case Format::D:
    return s + " " + r(in.rd);
  case Format::A:
    return s + " " + r(in.ra);
  case Format::I:
    return s + " " + immText(in.imm);
  case Format::DI:
    return s + " " + r(in.rd) + ", " + immText(in.imm);
  case Format::DA:
    return s + " " + r(in.rd) + ", " + r(in.ra);
  case Format::DAB:
    return s + " " + r(in.rd) + ", " + r(in.ra) + ", " + r(in.rb);
  case Format::DABC:
    return s + " " + r(in.rd) + ", " + r(in.ra) + ", " + r(in.rb) + ", " + r(in.rc);
  case Format::DAI:
    return s + " " + r(in.rd) + ", " + r(in.ra) + ", " + immText(in.imm);
  case Format::AI:
    return s + " " + r(in.ra) + ", " + immText(in.imm);
  case Format::Load:
    return s + " " + r(in.rd) + ", " + memOperand(in, false);
  case Format::LoadPost:
    return s + " " + r(in.rd) + ", " + memOperand(in, true);
  case Format::Store:
    return s + " " + r(in.rb) + ", " + memOperand(in, false);
  case Format::StorePost:
    return s + " " + r(in.rb) + ", " + memOperand(in, true);
  case Format::Jump:
    return s + " " + target(in, pc);
  case Format::AJump:
    return s + " " + r(in.ra) + ", " + target(in, pc);
  }
  return s;
}

std::string disassembleWord(uint64_t word, uint32_t pc) {
  if (auto in = decode(word))
    return disassemble(*in, pc);
  char buf[32];
  std::snprintf(buf, sizeof buf, ".word 0x%016llx", static_cast<unsigned long long>(word));
  return buf;
}

} // namespace poplar::isa
