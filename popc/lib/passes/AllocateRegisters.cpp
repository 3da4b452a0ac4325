// Linear-scan register allocation with spilling; see MachinePasses.hpp for the contract.
#include "passes/MachinePasses.hpp"

#include "llvm/ADT/BitVector.h"

#include <algorithm>
#include <map>

namespace popc {

using mir::Reg;
using poplar::isa::Opcode;

namespace {

/// The live range of a virtual register, or of a pair (keyed by its head, width 2).
struct Interval {
  Reg vreg;
  unsigned start, end;
  unsigned width = 1;
  Reg phys = 0;  ///< the first register; a pair also has phys + 1
  int slot = -1; ///< a spilled interval's frame slot, or kRematerialized
  bool spilled() const { return slot != -1; }
};

/// The slot of a spilled constant: each use builds it again with movi (no store, no load).
constexpr int kRematerialized = -2;

bool isSpillScratch(Reg r) {
  for (Reg s : mir::SpillScratch)
    if (r == s)
      return true;
  for (Reg s : mir::SpillScratchPairs)
    if (r == s || r == s + 1)
      return true;
  return false;
}

/// Physical registers the allocator may hand out, cheapest first: caller-saved ones need no
/// save in the prologue; the spill scratch registers are kept out.
std::vector<Reg> allocatable() {
  std::vector<Reg> regs;
  for (Reg r = 1; r <= mir::LastCallerSaved; ++r)
    if (!isSpillScratch(r))
      regs.push_back(r);
  for (Reg r = poplar::isa::kFirstCalleeSaved; r <= poplar::isa::kLastCalleeSaved; ++r)
    regs.push_back(r);
  return regs;
}

/// The even registers of `pool` whose successor is in it too, in the pool's order.
std::vector<Reg> allocatablePairs(const std::vector<Reg> &pool) {
  std::vector<Reg> pairs;
  for (Reg r : pool)
    if (r % 2 == 0 && std::find(pool.begin(), pool.end(), r + 1) != pool.end())
      pairs.push_back(r);
  return pairs;
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
    findConstants();
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

  /// The register whose interval holds `v`: its pair's head, or itself.
  Reg group(Reg v) const {
    Reg head = f_.pairOf(v);
    return head ? head : v;
  }

  void extend(Reg v, unsigned pos) {
    v = group(v);
    auto [it, added] = byReg_.emplace(v, Interval{v, pos, pos, f_.isPairHead(v) ? 2u : 1u});
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
    for (Reg r = phys; r < phys + iv.width; ++r)
      for (const auto &[a, b] : fixed_[r])
        if (iv.start <= b && a <= iv.end)
          return true;
    return false;
  }

  static bool overlaps(const Interval &a, Reg phys, unsigned width) {
    return a.phys < phys + width && phys < a.phys + a.width;
  }

  /// The registers written exactly once, by a movi: their values, by register.
  void findConstants() {
    std::map<Reg, unsigned> defCount;
    std::vector<Reg> defs;
    for (auto &b : f_.blocks)
      for (const mir::Inst &i : b->insts) {
        defs.clear();
        mir::defsOf(i, defs);
        for (Reg r : defs)
          if (mir::isVirtual(r) && ++defCount[r] == 1 && i.op == Opcode::Movi)
            constants_[r] = i.imm;
      }
    for (const auto &[r, n] : defCount)
      if (n != 1)
        constants_.erase(r);
  }

  /// Whether every register of the interval is a constant (movi): spilling it costs a movi per
  /// use instead of a store and loads.
  bool isConstant(const Interval &iv) const {
    for (Reg r = iv.vreg; r < iv.vreg + iv.width; ++r)
      if (!constants_.count(r))
        return false;
    return true;
  }

  int spillSlot(const Interval &iv) {
    return isConstant(iv) ? kRematerialized : f_.newSlot(4 * iv.width, 4 * iv.width);
  }

  void scan() {
    std::vector<Interval *> order;
    for (auto &[r, iv] : byReg_)
      order.push_back(&iv);
    std::sort(order.begin(), order.end(), [](const Interval *a, const Interval *b) {
      return a->start != b->start ? a->start < b->start : a->vreg < b->vreg;
    });
    std::vector<Interval *> active;
    const std::vector<Reg> pool = allocatable(), pairs = allocatablePairs(pool);
    for (Interval *iv : order) {
      active.erase(std::remove_if(active.begin(), active.end(),
                                  [&](Interval *a) { return a->end < iv->start; }),
                   active.end());
      Reg chosen = 0;
      for (Reg r : iv->width == 2 ? pairs : pool) {
        bool busy = std::any_of(active.begin(), active.end(),
                                [&](Interval *a) { return overlaps(*a, r, iv->width); });
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
      // Spill a constant (rebuilt by a movi at each use) before anything else, then whichever
      // of the candidates lives longest; a pair takes only a pair's place.
      Interval *victim = nullptr;
      auto better = [&](const Interval *a) {
        if (!victim)
          return true;
        if (isConstant(*a) != isConstant(*victim))
          return isConstant(*a);
        return a->end > victim->end;
      };
      if (!isConstant(*iv))
        for (Interval *a : active)
          if ((a->end > iv->end || isConstant(*a)) && a->width >= iv->width &&
              !conflictsWithFixed(a->phys, *iv) && better(a))
            victim = a;
      if (victim) {
        iv->phys = victim->phys;
        victim->phys = 0;
        victim->slot = spillSlot(*victim);
        std::replace(active.begin(), active.end(), victim, iv);
      } else {
        iv->slot = spillSlot(*iv);
      }
    }
  }

  /// Reloads a spilled register, or pair, into `reg` (movi for a constant).
  void reload(std::vector<mir::Inst> &out, Reg reg, const Interval &iv, unsigned half, bool pair,
              const mir::Inst &at) {
    if (iv.slot != kRematerialized) {
      out.push_back(spillAccess(pair ? Opcode::Ld64 : Opcode::Ld32, reg, iv, half, at));
      return;
    }
    for (unsigned k = 0; k < (pair ? 2u : 1u); ++k) {
      mir::Inst m;
      m.op = Opcode::Movi;
      m.rd = reg + k;
      m.imm = constants_.at(iv.vreg + half + k);
      m.loc = at.loc;
      out.push_back(m);
    }
  }

  /// An access to a spilled register (or pair): `op` of half `half` at the slot.
  mir::Inst spillAccess(Opcode op, Reg reg, const Interval &iv, unsigned half,
                        const mir::Inst &at) {
    mir::Inst a;
    a.op = op;
    bool load = op == Opcode::Ld32 || op == Opcode::Ld64;
    (load ? a.rd : a.rb) = reg;
    a.ra = poplar::isa::kRegSp;
    a.imm = static_cast<std::int32_t>(4 * half);
    a.slot = iv.slot;
    a.loc = at.loc;
    return a;
  }

  void rewrite() {
    for (auto &b : f_.blocks) {
      std::vector<mir::Inst> out;
      for (mir::Inst i : b->insts) {
        std::vector<Reg *> uses, defs;
        mir::useOperands(i, uses);
        mir::defOperands(i, defs);
        std::vector<mir::Inst> before, after;
        unsigned scratch = 0, scratchPairs = 0;
        // Reloads by (register, read as a pair).
        std::map<std::pair<Reg, bool>, Reg> reloaded;
        for (Reg *r : uses) {
          if (!mir::isVirtual(*r))
            continue;
          const Interval &iv = byReg_.at(group(*r));
          unsigned half = *r - iv.vreg;
          if (!iv.spilled()) {
            *r = iv.phys + half;
            continue;
          }
          bool pair = mir::isPairOperand(i, r);
          auto [it, added] =
              reloaded.emplace(std::make_pair(*r, pair), pair ? mir::SpillScratchPairs[scratchPairs]
                                                              : mir::SpillScratch[scratch]);
          if (added) {
            reload(before, it->second, iv, half, pair, i);
            (pair ? scratchPairs : scratch)++;
          }
          *r = it->second;
        }
        bool dropped = false;
        for (Reg *r : defs) {
          if (!mir::isVirtual(*r))
            continue;
          const Interval &iv = byReg_.at(group(*r));
          unsigned half = *r - iv.vreg;
          if (!iv.spilled()) {
            *r = iv.phys + half;
            continue;
          }
          if (iv.slot == kRematerialized) {
            dropped = true; // the movi itself: every use builds the constant again
            continue;
          }
          // A value written and read by one instruction (post-increment) keeps its reload.
          bool pair = mir::isPairOperand(i, r);
          auto it = reloaded.find({*r, pair});
          Reg s = it != reloaded.end() ? it->second
                  : pair               ? mir::SpillScratchPairs[0]
                                       : mir::SpillScratch[0];
          *r = s;
          after.push_back(spillAccess(pair ? Opcode::St64 : Opcode::St32, s, iv, half, i));
        }
        out.insert(out.end(), before.begin(), before.end());
        if (dropped)
          continue;
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
  std::map<Reg, std::int32_t> constants_; ///< registers whose only definition is a movi
};

} // namespace

void allocateRegisters(mir::Function &function) { Allocator(function).run(); }

} // namespace popc
