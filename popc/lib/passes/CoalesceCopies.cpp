// Copy coalescing: merges the two virtual registers of a `mov` when they do not interfere, so
// the copies that phi elimination leaves disappear before register allocation.
#include "passes/Liveness.hpp"
#include "passes/MachinePasses.hpp"

#include <algorithm>
#include <numeric>
#include <set>

namespace popc {

using mir::Reg;
using poplar::isa::Opcode;

namespace {

class Coalescer {
public:
  explicit Coalescer(mir::Function &f) : f_(f), n_(f.nextVirtual), leader_(n_), interferes_(n_) {
    std::iota(leader_.begin(), leader_.end(), 0);
  }

  void run() {
    buildInterference();
    bool merged = false;
    for (auto &b : f_.blocks)
      for (const mir::Inst &i : b->insts)
        if (i.op == Opcode::Mov && mir::isVirtual(i.rd) && mir::isVirtual(i.ra))
          merged |= merge(find(i.rd), find(i.ra));
    if (merged)
      rewrite();
  }

private:
  Reg find(Reg r) {
    while (leader_[r] != r)
      r = leader_[r] = leader_[leader_[r]];
    return r;
  }

  /// Chaitin's interference: a register defined by an instruction interferes with every
  /// register live after it, except with the source of a copy (which may share its register).
  /// Registers defined by the same instruction interfere with each other.
  void buildInterference() {
    std::vector<llvm::BitVector> liveOut = virtualLiveOut(f_);
    std::vector<Reg> uses, defs;
    for (std::size_t k = 0; k < f_.blocks.size(); ++k) {
      llvm::BitVector live = liveOut[k];
      auto &insts = f_.blocks[k]->insts;
      for (auto it = insts.rbegin(); it != insts.rend(); ++it) {
        uses.clear();
        defs.clear();
        mir::usesOf(*it, uses);
        mir::defsOf(*it, defs);
        bool copy = it->op == Opcode::Mov;
        for (Reg d : defs) {
          if (!mir::isVirtual(d))
            continue;
          for (unsigned l : live.set_bits())
            if (l != d && !(copy && l == it->ra))
              addEdge(d, l);
          for (Reg d2 : defs)
            if (mir::isVirtual(d2) && d2 != d)
              addEdge(d, d2);
        }
        for (Reg d : defs)
          if (mir::isVirtual(d))
            live.reset(d);
        for (Reg u : uses)
          if (mir::isVirtual(u))
            live.set(u);
      }
    }
  }

  void addEdge(Reg a, Reg b) {
    interferes_[a].insert(b);
    interferes_[b].insert(a);
  }

  /// Merges b into a unless they interfere. Interference sets hold leaders after a merge.
  bool mergeOne(Reg a, Reg b) {
    if (a == b || interferes_[a].count(b))
      return false;
    leader_[b] = a;
    for (Reg x : interferes_[b]) {
      interferes_[x].erase(b);
      interferes_[x].insert(a);
      interferes_[a].insert(x);
    }
    interferes_[b].clear();
    return true;
  }

  /// Merges the classes of a and b. A register of a pair keeps its number (it leads its class):
  /// a lone register joins it, and two pairs merge only as wholes, half to half.
  bool merge(Reg a, Reg b) {
    Reg pa = f_.pairOf(a), pb = f_.pairOf(b);
    if (!pa && pb)
      return merge(b, a);
    if (!pb)
      return mergeOne(a, b);
    unsigned half = a - pa;
    if (pa == pb || b - pb != half)
      return false;
    Reg otherA = pa + 1 - half, otherB = pb + 1 - half;
    if (a == b || interferes_[a].count(b) || interferes_[otherA].count(otherB))
      return false;
    return mergeOne(a, b) && mergeOne(otherA, otherB);
  }

  void rewrite() {
    std::vector<Reg *> ops;
    for (auto &b : f_.blocks) {
      for (mir::Inst &i : b->insts) {
        ops.clear();
        mir::useOperands(i, ops);
        mir::defOperands(i, ops);
        for (Reg *r : ops)
          if (mir::isVirtual(*r))
            *r = find(*r);
      }
      b->insts.erase(
          std::remove_if(b->insts.begin(), b->insts.end(),
                         [](const mir::Inst &i) { return i.op == Opcode::Mov && i.rd == i.ra; }),
          b->insts.end());
    }
  }

  mir::Function &f_;
  unsigned n_;
  std::vector<Reg> leader_;
  std::vector<std::set<Reg>> interferes_;
};

} // namespace

void coalesceCopies(mir::Function &function) { Coalescer(function).run(); }

} // namespace popc
