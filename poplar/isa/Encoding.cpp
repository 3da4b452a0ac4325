// Encoder, decoder and well-formedness rules of the 64-bit tile ISA word (layout in Isa.hpp).
#include "isa/Isa.hpp"

namespace poplar::isa {

bool usesRd(Format f) {
  switch (f) {
  case Format::D:
  case Format::DI:
  case Format::DA:
  case Format::DAB:
  case Format::DABC:
  case Format::DAI:
  case Format::Load:
  case Format::LoadPost:
    return true;
  default:
    return false;
  }
}

bool usesRa(Format f) {
  switch (f) {
  case Format::A:
  case Format::DA:
  case Format::DAB:
  case Format::DABC:
  case Format::DAI:
  case Format::AI:
  case Format::Load:
  case Format::LoadPost:
  case Format::Store:
  case Format::StorePost:
  case Format::AJump:
    return true;
  default:
    return false;
  }
}

bool usesRb(Format f) {
  return f == Format::DAB || f == Format::DABC || f == Format::Store || f == Format::StorePost;
}

bool usesRc(Format f) { return f == Format::DABC; }

bool usesImm(Format f) {
  switch (f) {
  case Format::I:
  case Format::DI:
  case Format::DAI:
  case Format::AI:
  case Format::Load:
  case Format::LoadPost:
  case Format::Store:
  case Format::StorePost:
  case Format::Jump:
  case Format::AJump:
    return true;
  default:
    return false;
  }
}

std::optional<Opcode> opcodeFromMnemonic(std::string_view mnemonic) {
  for (unsigned i = 0; i < kNumOpcodes; ++i)
    if (mnemonic == kOpcodeInfo[i].mnemonic)
      return static_cast<Opcode>(i);
  return std::nullopt;
}

uint64_t encode(const Insn &insn) {
  uint64_t w = uint64_t(static_cast<unsigned>(insn.op) + 1) << kOpcodeShift;
  w |= uint64_t(insn.rd & 63) << kRdShift;
  w |= uint64_t(insn.ra & 63) << kRaShift;
  w |= uint64_t(insn.rb & 63) << kRbShift;
  w |= uint64_t(insn.rc & 63) << kRcShift;
  w |= uint64_t(uint32_t(insn.imm)) << kImmShift;
  return w;
}

const char *validate(const Insn &insn) {
  if (static_cast<unsigned>(insn.op) >= kNumOpcodes)
    return "unknown opcode";
  const OpcodeInfo &in = info(insn.op);
  const Format f = in.format;
  if (insn.rd >= kNumRegs || insn.ra >= kNumRegs || insn.rb >= kNumRegs || insn.rc >= kNumRegs)
    return "register out of range";
  if ((!usesRd(f) && insn.rd) || (!usesRa(f) && insn.ra) || (!usesRb(f) && insn.rb) ||
      (!usesRc(f) && insn.rc) || (!usesImm(f) && insn.imm))
    return "field not used by this format is nonzero";
  if (((in.flags & PD) && (insn.rd & 1)) || ((in.flags & PA) && (insn.ra & 1)) ||
      ((in.flags & PB) && (insn.rb & 1)) || ((in.flags & PC) && (insn.rc & 1)))
    return "register pair must start at an even register";
  // Writes to r0 are discarded, which a pair destination cannot express cheaply.
  if ((in.flags & PD) && usesRd(f) && insn.rd == kRegZero)
    return "register pair destination may not be r0";
  // Post-increment and brnzdec write their ra; r0 would silently make them no-ops.
  if ((f == Format::LoadPost || f == Format::StorePost || insn.op == Opcode::Brnzdec) &&
      insn.ra == kRegZero)
    return "written base or counter may not be r0";
  // A post-increment load writing its own base would make the base update meaningless.
  if (f == Format::LoadPost && (insn.ra == insn.rd || ((in.flags & PD) && insn.ra == insn.rd + 1)))
    return "post-increment load may not overwrite its base register";
  if (insn.op == Opcode::Rpt && insn.imm < 1)
    return "rpt body must hold at least one instruction";
  if ((insn.op == Opcode::Ampget || insn.op == Opcode::Ampput) &&
      (insn.imm < 0 || insn.imm >= int32_t(kNumAccumulators / 2)))
    return "accumulator pair index out of range";
  return nullptr;
}

std::optional<Insn> decode(uint64_t word) {
  const unsigned opField = unsigned(word >> kOpcodeShift) & 0xff;
  if (opField == 0 || opField > kNumOpcodes)
    return std::nullopt;
  Insn insn;
  insn.op = static_cast<Opcode>(opField - 1);
  insn.rd = uint8_t((word >> kRdShift) & 63);
  insn.ra = uint8_t((word >> kRaShift) & 63);
  insn.rb = uint8_t((word >> kRbShift) & 63);
  insn.rc = uint8_t((word >> kRcShift) & 63);
  insn.imm = int32_t(uint32_t(word >> kImmShift));
  if (validate(insn))
    return std::nullopt;
  return insn;
}

} // namespace poplar::isa
