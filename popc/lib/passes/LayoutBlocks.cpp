// Branch layout: jump threading through blocks that only branch on, removal of blocks no
// branch reaches, single-block counted loops placed after the block that enters them, and
// falling through to the next block instead of jumping to it.
#include "passes/MachinePasses.hpp"

#include <set>

namespace popc {

using poplar::isa::Opcode;

namespace {

/// Where a branch to `b` really goes: past blocks that hold nothing but `br X`.
mir::Block *finalTarget(mir::Block *b) {
  std::set<mir::Block *> seen;
  while (b->insts.size() == 1 && b->insts[0].op == Opcode::Br && seen.insert(b).second)
    b = b->insts[0].target;
  return b;
}

/// Whether `b` is a single-block loop closed by `brnzdec r, b` (then at most a `br` out): the
/// shape formRepeatLoops turns into a zero-overhead rpt loop.
bool isCountedSelfLoop(const mir::Block &b) {
  const auto &insts = b.insts;
  for (std::size_t j = insts.size(); j-- > 0 && insts.size() - j <= 2;)
    if (insts[j].op == Opcode::Brnzdec && insts[j].target == &b)
      return j + 1 == insts.size() || insts[j + 1].op == Opcode::Br;
  return false;
}

/// Moves each single-block counted loop entered from one other block to just after it, so that
/// the loop can be entered by falling through (a rpt loop must be). LLVM's block order often
/// puts the code after a loop between the test that skips it and the loop itself. Every block
/// still ends in an explicit branch here, so moving one changes no control flow.
void placeCountedLoops(mir::Function &f) {
  for (std::size_t k = 1; k < f.blocks.size(); ++k) {
    mir::Block *body = f.blocks[k].get();
    if (!isCountedSelfLoop(*body))
      continue;
    mir::Block *entry = nullptr;
    int entries = 0;
    for (auto &b : f.blocks)
      if (b.get() != body)
        for (const mir::Inst &i : b->insts)
          if (i.target == body) {
            entry = b.get();
            ++entries;
          }
    if (entries != 1 || f.blocks[k - 1].get() == entry)
      continue;
    std::unique_ptr<mir::Block> moved = std::move(f.blocks[k]);
    f.blocks.erase(f.blocks.begin() + k);
    std::size_t at = 0;
    while (f.blocks[at].get() != entry)
      ++at;
    f.blocks.insert(f.blocks.begin() + at + 1, std::move(moved));
    if (at >= k) // the block that followed the loop is now at k: look at it too
      --k;
  }
}

} // namespace

void layoutBlocks(mir::Function &f) {
  // Thread branches, then drop the blocks nothing branches to: every block still ends in a
  // br, ret or trap here, so none is reached by falling through.
  std::set<mir::Block *> targeted;
  for (auto &b : f.blocks)
    for (mir::Inst &i : b->insts)
      if (i.target) {
        i.target = finalTarget(i.target);
        targeted.insert(i.target);
      }
  for (std::size_t k = f.blocks.size(); k-- > 1;)
    if (!targeted.count(f.blocks[k].get()))
      f.blocks.erase(f.blocks.begin() + k);
  placeCountedLoops(f);

  for (std::size_t k = 0; k < f.blocks.size(); ++k) {
    mir::Block *next = k + 1 < f.blocks.size() ? f.blocks[k + 1].get() : nullptr;
    auto &insts = f.blocks[k]->insts;
    if (insts.empty() || insts.back().op != Opcode::Br || insts.back().target != next)
      continue;
    insts.pop_back();
    // brnz c, next; (fell through to) X  ==  brz c, X ... is handled below when the
    // conditional branch now jumps to the next block.
    if (!insts.empty() && insts.back().op == Opcode::Brnz && insts.back().target == next)
      insts.pop_back();
  }
  for (std::size_t k = 0; k + 1 < f.blocks.size(); ++k) {
    mir::Block *next = f.blocks[k + 1].get();
    auto &insts = f.blocks[k]->insts;
    std::size_t n = insts.size();
    bool conditional =
        n >= 2 && (insts[n - 2].op == Opcode::Brnz || insts[n - 2].op == Opcode::Brz);
    if (conditional && insts[n - 2].target == next && insts[n - 1].op == Opcode::Br) {
      insts[n - 2].op = insts[n - 2].op == Opcode::Brnz ? Opcode::Brz : Opcode::Brnz;
      insts[n - 2].target = insts[n - 1].target;
      insts.pop_back();
    }
  }
}

} // namespace popc
