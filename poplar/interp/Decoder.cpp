// Decoder from ISA words to the interpreter's dense array, with rpt bodies copied out of line.
#include "interp/Decoder.hpp"

namespace poplar::interp {

using isa::Format;
using isa::Insn;
using isa::Opcode;

namespace {

DecodedInsn bad(uint32_t pc) { return DecodedInsn{kOpBad, 0, 0, 0, 0, 0, 0, pc}; }

DecodedInsn lower(const Insn &in, uint32_t pc) {
  const isa::OpcodeInfo &oi = isa::info(in.op);
  DecodedInsn d{
      static_cast<uint16_t>(in.op), oi.cycles, in.rd, in.ra, in.rb, in.rc, uint32_t(in.imm), pc};
  if (isa::usesRd(oi.format) && in.rd == isa::kRegZero)
    d.rd = kSinkReg;
  return d;
}

bool isBranch(Format f) { return f == Format::Jump || f == Format::AJump; }

// A rpt body must be in the code, decodable and free of control flow (ipu-model.md 2.3).
bool rptBodyOk(const std::vector<std::optional<Insn>> &insns, uint32_t pc, uint32_t len) {
  if (uint64_t(pc) + len >= insns.size())
    return false;
  for (uint32_t i = pc + 1; i <= pc + len; ++i)
    if (!insns[i] || (isa::info(insns[i]->op).flags & isa::CTL))
      return false;
  return true;
}

} // namespace

DecodedCode decodeCode(const uint64_t *words, size_t numWords) {
  DecodedCode code;
  code.numWords = uint32_t(numWords);
  std::vector<std::optional<Insn>> insns(numWords);
  for (size_t i = 0; i < numWords; ++i)
    insns[i] = isa::decode(words[i]);

  code.insns.reserve(numWords + 1);
  for (uint32_t pc = 0; pc < numWords; ++pc) {
    const auto &in = insns[pc];
    if (!in) {
      code.insns.push_back(bad(pc));
      continue;
    }
    DecodedInsn d = lower(*in, pc);
    if (isBranch(isa::info(in->op).format)) {
      const int64_t target = int64_t(pc) + in->imm;
      if (target < 0 || target >= int64_t(numWords))
        d = bad(pc);
      else
        d.imm = uint32_t(target);
    }
    code.insns.push_back(d);
  }
  code.insns.push_back(bad(uint32_t(numWords)));

  for (uint32_t pc = 0; pc < numWords; ++pc) {
    if (!insns[pc] || insns[pc]->op != Opcode::Rpt)
      continue;
    const uint32_t len = uint32_t(insns[pc]->imm);
    if (!rptBodyOk(insns, pc, len)) {
      code.insns[pc] = bad(pc);
      continue;
    }
    const uint32_t copyStart = uint32_t(code.insns.size());
    for (uint32_t i = pc + 1; i <= pc + len; ++i)
      code.insns.push_back(code.insns[i]);
    code.insns[pc].imm = uint32_t(code.insns.size());
    code.insns.push_back(DecodedInsn{kOpRptLoop, 0, 0, 0, 0, 0, copyStart, pc + len + 1});
  }
  return code;
}

} // namespace poplar::interp
