// Zero-overhead loops: a single-block loop closed by `brnzdec r, self` becomes
// `addi r, r, 1; rpt r, n` in front of its body, so an iteration costs only its body. A loop
// entered by branches (LLVM often lays a loop's exit code between its guard and the loop) gets
// a block of its own for the two, which the branches then enter.
#include "passes/MachinePasses.hpp"

#include <algorithm>
#include <memory>

namespace popc {

using poplar::isa::Opcode;

namespace {

/// Integer arithmetic that cannot trap: a candidate to leave a loop.
bool pureArithmetic(Opcode op) {
  switch (op) {
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::And:
  case Opcode::Or:
  case Opcode::Xor:
  case Opcode::Shl:
  case Opcode::Shr:
  case Opcode::Sra:
  case Opcode::Addi:
  case Opcode::Muli:
  case Opcode::Andi:
  case Opcode::Ori:
  case Opcode::Xori:
  case Opcode::Shli:
  case Opcode::Shri:
  case Opcode::Srai:
  case Opcode::Mov:
  case Opcode::Movi:
    return true;
  default:
    return false;
  }
}

/// Moves the loop-invariant arithmetic of body[0, end) to `to` and returns the new end. LLVM
/// hoists what it sees, but popc's lowering derives an address's scaled index next to its use,
/// inside the loop. An instruction leaves when no body instruction writes its sources and only
/// it writes its result, which nothing before it in the body reads: a rpt body runs at least
/// once (its count is the brnzdec count + 1), so the loop leaves the same value behind.
std::size_t hoistInvariants(std::vector<mir::Inst> &body, std::size_t end, mir::Block &to) {
  std::vector<mir::Reg> uses, defs;
  auto writes = [&](const mir::Inst &i, mir::Reg r) {
    defs.clear();
    mir::defsOf(i, defs);
    return std::find(defs.begin(), defs.end(), r) != defs.end();
  };
  auto reads = [&](const mir::Inst &i, mir::Reg r) {
    uses.clear();
    mir::usesOf(i, uses);
    return std::find(uses.begin(), uses.end(), r) != uses.end();
  };
  for (std::size_t j = 0; j < end;) {
    const mir::Inst candidate = body[j];
    std::vector<mir::Reg> sources, results;
    mir::usesOf(candidate, sources);
    mir::defsOf(candidate, results);
    bool invariant = pureArithmetic(candidate.op) && results.size() == 1;
    for (std::size_t i = 0; i < end && invariant; ++i) {
      for (mir::Reg r : sources)
        invariant = invariant && !writes(body[i], r);
      if (i != j)
        invariant = invariant && !writes(body[i], results[0]);
      if (i <= j)
        invariant = invariant && !reads(body[i], results[0]);
    }
    if (!invariant) {
      ++j;
      continue;
    }
    to.insts.push_back(candidate);
    body.erase(body.begin() + j);
    --end;
    j = 0; // what read it may be invariant now
  }
  return end;
}

} // namespace

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
    close = hoistInvariants(insts, close, *head);
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
