// Decoder from ISA words to the interpreter's dense array: rpt bodies copied out of line and
// unrolled, adjacent pairs fused (Fusions.def), per-block budget and cycle totals.
#include "interp/Decoder.hpp"

#include "isa/CoIssue.hpp"

#include <algorithm>
#include <initializer_list>

namespace poplar::interp {

using isa::Format;
using isa::Insn;
using isa::Opcode;

namespace {

// A rpt body is replicated up to this many instructions per pass (a power-of-two count of
// copies), so the loop-back is dispatched once every few iterations instead of every one.
constexpr uint32_t kUnrollInsns = 32, kMaxUnrollLog2 = 4;

DecodedInsn internal(uint16_t op, uint32_t imm, uint32_t pc) {
  return DecodedInsn{op, op, 0, 0, 0, 0, imm, pc, 0, 0, 0};
}
DecodedInsn bad(uint32_t pc) { return internal(kOpBad, 0, pc); }

DecodedInsn lower(const Insn &in, uint32_t pc) {
  const isa::OpcodeInfo &oi = isa::info(in.op);
  const auto op = static_cast<uint16_t>(in.op);
  DecodedInsn d{op, op, in.rd, in.ra, in.rb, in.rc, uint32_t(in.imm), pc, oi.cycles, 0, 0};
  if (isa::usesRd(oi.format) && in.rd == isa::kRegZero)
    d.rd = kSinkReg;
  return d;
}

bool isBranch(Format f) { return f == Format::Jump || f == Format::AJump; }

// Ends a block: control flow (the next instruction is found at run time) or a trap.
bool endsBlock(uint16_t plainOp) {
  return plainOp >= isa::kNumOpcodes || (isa::info(static_cast<Opcode>(plainOp)).flags & isa::CTL);
}

// A rpt body must be in the code, decodable and free of control flow (ipu-model.md 2.3).
bool rptBodyOk(const std::vector<std::optional<Insn>> &insns, uint32_t pc, uint32_t len) {
  if (uint64_t(pc) + len >= insns.size())
    return false;
  for (uint32_t i = pc + 1; i <= pc + len; ++i)
    if (!insns[i] || (isa::info(insns[i]->op).flags & isa::CTL))
      return false;
  return true;
}

// Appends 2^k copies of the body at [pc+1, pc+len] and its loop op. Fields of the loop op:
// imm = first copy, pc = index to continue at, rb = k, rest = len, restCycles = body cycles.
void copyRptBody(DecodedCode &code, uint32_t pc, uint32_t len) {
  uint32_t k = 0;
  while (k < kMaxUnrollLog2 && (len << (k + 1)) <= kUnrollInsns)
    ++k;
  uint64_t bodyCycles = 0;
  for (uint32_t i = pc + 1; i <= pc + len; ++i)
    bodyCycles += code.insns[i].cycles;
  const uint32_t copyStart = uint32_t(code.insns.size());
  for (uint32_t copy = 0; copy < (1u << k); ++copy)
    for (uint32_t i = pc + 1; i <= pc + len; ++i)
      code.insns.push_back(code.insns[i]);
  code.insns[pc].imm = uint32_t(code.insns.size());
  DecodedInsn loop = internal(kOpRptLoop, copyStart, pc + len + 1);
  loop.rb = uint8_t(k);
  loop.rest = len;
  loop.restCycles = bodyCycles;
  code.insns.push_back(loop);
}

// Per-block totals, from the back: main code blocks end at endsBlock, copies at their loop op.
void computeRest(DecodedCode &code) {
  auto &v = code.insns;
  for (size_t i = v.size(); i-- > 0;) {
    DecodedInsn &d = v[i];
    if (d.plainOp == kOpRptLoop)
      continue;
    const bool last = endsBlock(d.plainOp) || v[i + 1].plainOp == kOpRptLoop;
    d.rest = 1 + (last ? 0 : v[i + 1].rest);
    d.restCycles = d.cycles + (last ? 0 : v[i + 1].restCycles);
  }
}

// Greedy, left to right; a pair never spans a block end (the second is never a loop op).
void fusePairs(DecodedCode &code) {
  auto &v = code.insns;
  for (size_t i = 0; i + 1 < v.size(); ++i) {
    if (endsBlock(v[i].plainOp))
      continue;
    if (uint16_t op = fusedOp(v[i].plainOp, v[i + 1].plainOp)) {
      v[i].op = op;
      ++i;
    }
  }
}

bool is(const DecodedInsn &d, Opcode op) { return d.plainOp == uint16_t(op); }

// Registers a kernel keeps in host registers: all different, and none of them r0 (or its
// sink), so that no write in the body lands on another's register.
bool distinct(std::initializer_list<uint8_t> regs) {
  uint64_t seen = 1ull << isa::kRegZero;
  for (uint8_t r : regs) {
    if (r >= 64 || (seen >> r & 1))
      return false;
    seen |= 1ull << r;
  }
  return true;
}

} // namespace

uint16_t matchRptKernel(const DecodedInsn *b, uint32_t len) {
  auto kernel = [](RptKernel k) { return uint16_t(kOpFirstKernel + uint16_t(k)); };
  // fadd A,A,X or fadd A,X,A (f32 addition commutes bit for bit; NaNs are canonical).
  auto accumulates = [](const DecodedInsn &d, uint8_t x) {
    return is(d, Opcode::Fadd) && ((d.ra == d.rd && d.rb == x) || (d.rb == d.rd && d.ra == x));
  };
  if ((len == 2 || len == 3) && is(b[0], Opcode::Ld32p) && accumulates(b[1], b[0].rd)) {
    const uint8_t x = b[0].rd, p = b[0].ra, a = b[1].rd;
    if (len == 2 && distinct({x, p, a}))
      return kernel(RptKernel::Sum);
    if (len == 3 && is(b[2], Opcode::St32) && b[2].rb == a && distinct({x, p, a, b[2].ra}))
      return kernel(RptKernel::SumStore);
    return 0;
  }
  if (len < 3 || !is(b[0], Opcode::Ld32p) || !is(b[1], Opcode::Ld32p))
    return 0;
  const uint8_t x = b[0].rd, p = b[0].ra, y = b[1].rd, q = b[1].ra;
  auto product = [&](const DecodedInsn &d) {
    return (d.ra == x && d.rb == y) || (d.ra == y && d.rb == x);
  };
  if (len == 3 && is(b[2], Opcode::Fma) && product(b[2]) && b[2].rc == b[2].rd &&
      distinct({x, p, y, q, b[2].rd}))
    return kernel(RptKernel::DotFma);
  if (len == 4 && is(b[2], Opcode::Fmul) && product(b[2]) && accumulates(b[3], b[2].rd) &&
      distinct({x, p, y, q, b[2].rd, b[3].rd}))
    return kernel(RptKernel::Dot);
  return 0;
}

const std::vector<FusionRow> &fusionRows() {
  static const std::vector<FusionRow> rows = {
#define POPLAR_FUSION(First, Second) {Opcode::First, Opcode::Second},
#include "interp/Fusions.def"
  };
  return rows;
}

uint16_t fusedOp(uint16_t first, uint16_t second) {
  const auto &rows = fusionRows();
  for (size_t i = 0; i < rows.size(); ++i)
    if (uint16_t(rows[i].first) == first && uint16_t(rows[i].second) == second)
      return uint16_t(kOpFirstFused + i);
  return 0;
}

Unissued unissuedAfter(const DecodedCode &code, uint32_t index, uint32_t rptLeft) {
  const DecodedInsn &d = code.insns[index];
  Unissued u{d.rest - 1, d.restCycles - d.cycles};
  if (index > code.numWords && rptLeft > 1) {
    uint32_t loop = index;
    while (code.insns[loop].plainOp != kOpRptLoop)
      ++loop;
    const DecodedInsn &first = code.insns[code.insns[loop].imm];
    u.instructions += uint64_t(rptLeft - 1) * first.rest;
    u.cycles += uint64_t(rptLeft - 1) * first.restCycles;
  }
  return u;
}

DecodedCode decodeCode(const uint64_t *words, size_t numWords, bool fuse) {
  DecodedCode code;
  code.numWords = uint32_t(numWords);
  std::vector<std::optional<Insn>> insns(numWords);
  for (size_t i = 0; i < numWords; ++i) {
    insns[i] = isa::decode(words[i]);
    if (insns[i]) {
      auto group = isa::group(insns[i]->op);
      code.usesAmp |= group == isa::OpGroup::Amp || group == isa::OpGroup::AmpPass;
    }
  }

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
  // The second half of a bundle is free; before the rpt copies, which take the body's cycles.
  const std::vector<bool> seconds = isa::bundleSeconds(words, numWords);
  for (uint32_t pc = 0; pc < numWords; ++pc)
    if (seconds[pc] && code.insns[pc].plainOp != kOpBad)
      code.insns[pc].cycles = 0;

  for (uint32_t pc = 0; pc < numWords; ++pc) {
    if (!insns[pc] || insns[pc]->op != Opcode::Rpt)
      continue;
    const uint32_t len = uint32_t(insns[pc]->imm);
    if (rptBodyOk(insns, pc, len)) {
      copyRptBody(code, pc, len);
      if (uint16_t op = fuse ? matchRptKernel(&code.insns[pc + 1], len) : 0)
        code.insns[pc].op = op;
    } else
      code.insns[pc] = bad(pc);
  }
  computeRest(code);
  if (fuse)
    fusePairs(code);
  return code;
}

} // namespace poplar::interp
