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

/// Whether `i` reads `r` through a plain 32-bit source field (ra, rb or rc), so that the read
/// can be renamed; a read through a pair or an implicit one cannot.
bool readsOnlyPlainly(const mir::Inst &i, mir::Reg r) {
  const uint8_t flags = poplar::isa::info(i.op).flags;
  std::vector<mir::Reg> uses;
  mir::usesOf(i, uses);
  const auto count = std::count(uses.begin(), uses.end(), r);
  const auto plain = (i.ra == r && !(flags & poplar::isa::PA)) +
                     (i.rb == r && !(flags & poplar::isa::PB)) +
                     (i.rc == r && !(flags & poplar::isa::PC));
  return count == plain;
}

void renameReads(mir::Inst &i, mir::Reg from, mir::Reg to) {
  for (mir::Reg *field : {&i.ra, &i.rb, &i.rc})
    if (*field == from)
      *field = to;
}

/// Moves the loop-invariant arithmetic of body[0, end) to `to` and returns the new end. LLVM
/// hoists what it sees, but popc's lowering derives an address's scaled index next to its use,
/// inside the loop. An instruction leaves when no body instruction writes its sources and
/// nothing before it in the body reads its result: a rpt body runs at least once (its count is
/// the brnzdec count + 1), so the loop leaves the same value behind. Where the allocator reused
/// its result register in the body (written again after it), the value moves to a caller-saved
/// register `free` offers (one the function never names; a rpt body makes no calls) and its
/// readers up to the register's next write read that instead.
template <class Overwritten>
std::size_t hoistInvariants(std::vector<mir::Inst> &body, std::size_t end, mir::Block &to,
                            std::vector<mir::Reg> &free, Overwritten overwrittenAfterLoop) {
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
    mir::Inst candidate = body[j];
    std::vector<mir::Reg> sources, results;
    mir::usesOf(candidate, sources);
    mir::defsOf(candidate, results);
    bool invariant = pureArithmetic(candidate.op) && results.size() == 1;
    std::size_t nextWrite = end; // the body's next write of the result after j, if any
    bool writtenBefore = false, readBefore = false, writtenFirst = false;
    for (std::size_t i = 0; i < end && invariant; ++i) {
      for (mir::Reg r : sources)
        invariant = invariant && !writes(body[i], r);
      const bool read = i < j && reads(body[i], results[0]);
      if (read && !writtenBefore && !readBefore)
        writtenFirst = false;
      readBefore = readBefore || read;
      if (i != j && writes(body[i], results[0])) {
        if (i < j) {
          writtenFirst = writtenFirst || (!writtenBefore && !readBefore);
          writtenBefore = true;
        } else if (nextWrite == end) {
          nextWrite = i;
        }
      }
    }
    const mir::Reg result = invariant ? results[0] : 0;
    if (invariant && (writtenBefore || readBefore || nextWrite != end)) {
      // Renamed. With a later write in the body, what is read before j is never this value;
      // else the body must write the register before reading it (so its reads before j see
      // that write) and the code after the loop too (which then never sees it). The readers up
      // to and with the next write must read plainly.
      invariant =
          !free.empty() && (nextWrite != end || (writtenFirst && overwrittenAfterLoop(result)));
      for (std::size_t i = j + 1; i <= nextWrite && i < end && invariant; ++i)
        invariant = !reads(body[i], result) || readsOnlyPlainly(body[i], result);
      if (invariant) {
        candidate.rd = free.back();
        free.pop_back();
        for (std::size_t i = j + 1; i <= nextWrite && i < end; ++i)
          renameReads(body[i], result, candidate.rd);
      }
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

/// Whether the code a loop exits to (from insts[from] of blocks[k] on, through unconditional
/// branches and falls-through) writes `r` before it reads it or branches.
bool overwrittenAfter(const mir::Function &f, std::size_t k, std::size_t from, mir::Reg r) {
  std::vector<mir::Reg> regs;
  const mir::Block *b = f.blocks[k].get();
  for (std::size_t i = from, steps = 0; steps < 64; ++steps) {
    if (i == b->insts.size()) {
      auto next = std::find_if(f.blocks.begin(), f.blocks.end(),
                               [&](const auto &block) { return block.get() == b; });
      if (next == f.blocks.end() || ++next == f.blocks.end())
        return false;
      b = next->get();
      i = 0;
      continue;
    }
    const mir::Inst &x = b->insts[i];
    if (x.op == Opcode::Br) {
      b = x.target;
      i = 0;
      continue;
    }
    if (poplar::isa::info(x.op).flags & poplar::isa::CTL)
      return false;
    regs.clear();
    mir::usesOf(x, regs);
    if (std::find(regs.begin(), regs.end(), r) != regs.end())
      return false;
    regs.clear();
    mir::defsOf(x, regs);
    if (std::find(regs.begin(), regs.end(), r) != regs.end())
      return true;
    ++i;
  }
  return false;
}

/// The caller-saved registers that no instruction of `f` names (allocation is done: a spill
/// scratch register no reload names is free too).
std::vector<mir::Reg> unnamedRegisters(const mir::Function &f) {
  std::vector<bool> named(poplar::isa::kNumRegs, false);
  std::vector<mir::Reg> regs;
  for (const auto &b : f.blocks)
    for (const mir::Inst &i : b->insts) {
      regs.clear();
      mir::usesOf(i, regs);
      mir::defsOf(i, regs);
      for (mir::Reg r : regs)
        if (r < named.size())
          named[r] = true;
    }
  std::vector<mir::Reg> unnamed;
  for (mir::Reg r = mir::FirstCallerSaved; r <= mir::LastCallerSaved; ++r)
    if (!named[r])
      unnamed.push_back(r);
  return unnamed;
}

} // namespace

void formRepeatLoops(mir::Function &f) {
  std::vector<mir::Reg> free = unnamedRegisters(f);
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
    close = hoistInvariants(insts, close, *head, free,
                            [&](mir::Reg r) { return overwrittenAfter(f, k, close + 1, r); });
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
