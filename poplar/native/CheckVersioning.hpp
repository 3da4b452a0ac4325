// The native tier's checks as pseudo-calls the optimiser can reason about (pure functions of
// their operands), the pass that versions a loop whose checks are affine in its iteration (one
// test before the loop, then a copy of the loop without them), and the pass that lowers the
// calls that remain to their compares. Both passes run where the -O2 pipeline starts
// vectorising, so a loop freed of its checks can be vectorised and unrolled.
#pragma once

#include <llvm/IR/PassManager.h>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace poplar::native {

// i1 @poplar.window(i32 addr, i32 lo, i64 span, i32 k): a 2^k-byte access at addr is aligned and
// in the window (interp::ops::inWindow with lo = Window::lo[k], span = Window::span[k]).
llvm::Function *windowCheck(llvm::Module &module);
// i1 @poplar.budget(i64 left, i64 cost): left >= cost, the budget covers a block or a rpt.
llvm::Function *budgetCheck(llvm::Module &module);

struct VersionCheckedLoops : llvm::PassInfoMixin<VersionCheckedLoops> {
  llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &analyses);
};

struct LowerChecks : llvm::PassInfoMixin<LowerChecks> {
  llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &analyses);
};

} // namespace poplar::native
