// The analysis set-up shared by the IR loop passes (CountLoops, StridePointers).
#include "passes/InnermostLoops.hpp"

#include "llvm/ADT/Triple.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

namespace popc {

void transformInnermostLoops(
    llvm::Module &m,
    llvm::function_ref<bool(llvm::Loop &, llvm::ScalarEvolution &, const llvm::DataLayout &)>
        transform) {
  for (llvm::Function &f : m) {
    if (f.isDeclaration())
      continue;
    llvm::DominatorTree dt(f);
    llvm::LoopInfo li(dt);
    llvm::TargetLibraryInfoImpl tlii(llvm::Triple(m.getTargetTriple()));
    llvm::TargetLibraryInfo tli(tlii);
    llvm::AssumptionCache ac(f);
    llvm::ScalarEvolution se(f, tli, ac, dt, li);
    bool changed = false;
    for (llvm::Loop *loop : li.getLoopsInPreorder())
      if (loop->isInnermost())
        changed |= transform(*loop, se, m.getDataLayout());
    if (changed)
      for (llvm::BasicBlock &bb : f)
        for (llvm::PHINode &phi : llvm::make_early_inc_range(bb.phis()))
          llvm::RecursivelyDeleteDeadPHINode(&phi);
  }
}

} // namespace popc
