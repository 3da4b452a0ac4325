// Linear-scan register allocation with spilling; see MachinePasses.hpp for the contract.
#include "passes/MachinePasses.hpp"

#include "llvm/ADT/BitVector.h"

#include <algorithm>
#include <map>

namespace popc {

using mir::Reg;
using poplar::isa::Opcode;

namespace {

struct Interval {
  Reg vreg;
  unsigned start, end;
  Reg phys = 0;
  int slot = -1;
};

/// Physical registers the allocator may hand out, cheapest first: caller-saved ones need no
/// save in the prologue; r9..r11 are the spill scratch registers.
std::vector<Reg> allocatable() {
  std::vector<Reg> regs;
  for (Reg r = 1; r <= 8; ++r)
    regs.push_back(r);
  for (Reg r = 12; r <= mir::LastCallerSaved; ++r)
    regs.push_back(r);
  for (Reg r = poplar::isa::kFirstCalleeSaved; r <= poplar::isa::kLastCalleeSaved; ++r)
    regs.push_back(r);
  return regs;
}

bool tracked(Reg r) {
  return mir::isVirtual(r) || (r != poplar::isa::kRegZero && r < poplar::isa::kRegFp);
}

class Allocator {
public:
  explicit Allocator(mir::Function &f) : f_(f) {}

  void run() {
    number();
    liveness();
    intervals();
    scan();
    rewrite();
  }

private:
  void number() {
    unsigned pos = 0;
    for (auto &b : f_.blocks) {
      blockStart_[b.get()] = pos;
      pos += 2 * b->insts.size();
      blockEnd_[b.get()] = pos ? pos - 1 : 0;
    }
  }

  std::vector<mir::Block *> successors(mir::Block &b) {
    std::vector<mir::Block *> s;
    for (const mir::Inst &i : b.insts)
      if (i.target)
        s.push_back(i.target);
    return s;
  }

  void liveness() {
    unsigned n = f_.nextVirtual;
    for (auto &b : f_.blocks) {
      llvm::BitVector use(n), def(n);
      std::vector<Reg> uses, defs;
      for (const mir::Inst &i : b->insts) {
        uses.clear();
        defs.clear();
        mir::usesOf(i, uses);
        mir::defsOf(i, defs);
        for (Reg r : uses)
          if (tracked(r) && !def[r])
            use.set(r);
        for (Reg r : defs)
          if (tracked(r))
            def.set(r);
      }
      use_[b.get()] = use;
      def_[b.get()] = def;
      liveIn_[b.get()] = use;
      liveOut_[b.get()] = llvm::BitVector(n);
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = f_.blocks.rbegin(); it != f_.blocks.rend(); ++it) {
        mir::Block *b = it->get();
        llvm::BitVector out(n);
        for (mir::Block *s : successors(*b))
          out |= liveIn_[s];
        llvm::BitVector in = out;
        in.reset(def_[b]);
        in |= use_[b];
        if (in != liveIn_[b] || out != liveOut_[b]) {
          liveIn_[b] = in;
          liveOut_[b] = out;
          changed = true;
        }
      }
    }
  }

  void extend(Reg v, unsigned pos) {
    auto [it, added] = byReg_.emplace(v, Interval{v, pos, pos});
    if (!added) {
      it->second.start = std::min(it->second.start, pos);
      it->second.end = std::max(it->second.end, pos);
    }
  }

  void intervals() {
    std::vector<Reg> uses, defs;
    for (auto &b : f_.blocks) {
      unsigned start = blockStart_[b.get()], end = blockEnd_[b.get()];
      for (unsigned v : liveIn_[b.get()].set_bits())
        if (mir::isVirtual(v))
          extend(v, start);
      for (unsigned v : liveOut_[b.get()].set_bits())
        if (mir::isVirtual(v))
          extend(v, end);
      // Physical registers: exact ranges from each def (or the block start) to its last use.
      std::map<Reg, std::pair<unsigned, unsigned>> open;
      unsigned pos = start;
      for (const mir::Inst &i : b->insts) {
        uses.clear();
        defs.clear();
        mir::usesOf(i, uses);
        mir::defsOf(i, defs);
        for (Reg r : uses) {
          if (mir::isVirtual(r)) {
            extend(r, pos);
          } else if (tracked(r)) {
            auto it = open.find(r);
            if (it == open.end())
              open[r] = {start, pos};
            else
              it->second.second = pos;
          }
        }
        for (Reg r : defs) {
          if (mir::isVirtual(r)) {
            extend(r, pos);
          } else if (tracked(r)) {
            auto it = open.find(r);
            if (it != open.end())
              fixed_[r].push_back(it->second);
            open[r] = {pos, pos};
          }
        }
        pos += 2;
      }
      for (const auto &[r, range] : open)
        fixed_[r].push_back(range);
    }
  }

  bool conflictsWithFixed(Reg phys, const Interval &iv) {
    for (const auto &[a, b] : fixed_[phys])
      if (iv.start <= b && a <= iv.end)
        return true;
    return false;
  }

  int spillSlot() { return f_.newSlot(4, 4); }

  void scan() {
    std::vector<Interval *> order;
    for (auto &[r, iv] : byReg_)
      order.push_back(&iv);
    std::sort(order.begin(), order.end(), [](const Interval *a, const Interval *b) {
      return a->start != b->start ? a->start < b->start : a->vreg < b->vreg;
    });
    std::vector<Interval *> active;
    const std::vector<Reg> pool = allocatable();
    for (Interval *iv : order) {
      active.erase(std::remove_if(active.begin(), active.end(),
                                  [&](Interval *a) { return a->end < iv->start; }),
                   active.end());
      Reg chosen = 0;
      for (Reg r : pool) {
        bool busy =
            std::any_of(active.begin(), active.end(), [&](Interval *a) { return a->phys == r; });
        if (!busy && !conflictsWithFixed(r, *iv)) {
          chosen = r;
          break;
        }
      }
      if (chosen) {
        iv->phys = chosen;
        active.push_back(iv);
        continue;
      }
      // Spill whichever of the candidates lives longest.
      Interval *victim = nullptr;
      for (Interval *a : active)
        if (a->end > iv->end && !conflictsWithFixed(a->phys, *iv) &&
            (!victim || a->end > victim->end))
          victim = a;
      if (victim) {
        iv->phys = victim->phys;
        victim->phys = 0;
        victim->slot = spillSlot();
        std::replace(active.begin(), active.end(), victim, iv);
      } else {
        iv->slot = spillSlot();
      }
    }
  }

  void rewrite() {
    for (auto &b : f_.blocks) {
      std::vector<mir::Inst> out;
      for (mir::Inst i : b->insts) {
        std::vector<Reg *> uses, defs;
        mir::useOperands(i, uses);
        mir::defOperands(i, defs);
        std::vector<mir::Inst> before, after;
        unsigned scratch = 0;
        std::map<Reg, Reg> reloaded;
        for (Reg *r : uses) {
          if (!mir::isVirtual(*r))
            continue;
          const Interval &iv = byReg_.at(*r);
          if (iv.slot < 0) {
            *r = iv.phys;
            continue;
          }
          auto [it, added] = reloaded.emplace(*r, mir::SpillScratch[scratch]);
          if (added) {
            mir::Inst ld;
            ld.op = Opcode::Ld32;
            ld.rd = mir::SpillScratch[scratch++];
            ld.ra = poplar::isa::kRegSp;
            ld.slot = iv.slot;
            ld.loc = i.loc;
            before.push_back(ld);
          }
          *r = it->second;
        }
        for (Reg *r : defs) {
          if (!mir::isVirtual(*r))
            continue;
          const Interval &iv = byReg_.at(*r);
          if (iv.slot < 0) {
            *r = iv.phys;
            continue;
          }
          // A value written and read by one instruction (post-increment) keeps its reload.
          auto it = reloaded.find(*r);
          Reg s = it != reloaded.end() ? it->second : mir::SpillScratch[0];
          *r = s;
          mir::Inst st;
          st.op = Opcode::St32;
          st.ra = poplar::isa::kRegSp;
          st.rb = s;
          st.slot = iv.slot;
          st.loc = i.loc;
          after.push_back(st);
        }
        out.insert(out.end(), before.begin(), before.end());
        if (i.op == Opcode::Brnzdec && !after.empty()) {
          // A spilled counter: the store after the branch would run only when the loop
          // exits, so decrement and store first, then branch on the value loaded (the
          // counter is dead after the loop, so leaving it at -1 there is harmless).
          mir::Inst dec = i;
          dec.op = Opcode::Addi;
          dec.rd = mir::SpillScratch[1];
          dec.imm = -1;
          dec.target = nullptr;
          after[0].rb = dec.rd;
          out.push_back(dec);
          out.insert(out.end(), after.begin(), after.end());
          i.op = Opcode::Brnz;
          out.push_back(i);
          continue;
        }
        if (!(i.op == Opcode::Mov && i.rd == i.ra))
          out.push_back(i);
        out.insert(out.end(), after.begin(), after.end());
      }
      b->insts = std::move(out);
    }
  }

  mir::Function &f_;
  std::map<mir::Block *, unsigned> blockStart_, blockEnd_;
  std::map<mir::Block *, llvm::BitVector> use_, def_, liveIn_, liveOut_;
  std::map<Reg, Interval> byReg_;
  std::map<Reg, std::vector<std::pair<unsigned, unsigned>>> fixed_;
};

} // namespace

void allocateRegisters(mir::Function &function) { Allocator(function).run(); }

} // namespace popc
