// Loop-invariant constants: a float or 64-bit constant costs one or two `movi` wherever it is
// used, so a loop would rebuild it on every iteration; a `freeze` of it in the preheader builds
// it once.
#include "passes/IRPasses.hpp"

#include "passes/MathFunctions.hpp"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <map>

namespace popc {

namespace {

/// Constants the lowering materialises with movi at each use: floats and 64-bit values (the
/// vectors SelectVectors carries as i64 bitcasts), but zero. 32-bit integers mostly fit an
/// immediate form.
bool needsRegisters(const llvm::Value *v) {
  const auto *c = llvm::dyn_cast<llvm::Constant>(v);
  if (!c || llvm::isa<llvm::UndefValue>(c) || c->isNullValue()) // zero is a register
    return false;
  return c->getType()->isFloatTy() || c->getType()->isHalfTy() || c->getType()->isIntegerTy(64);
}

/// Whether operand `k` of `i` may be any value (not an immediate argument or a phi's input,
/// which the lowering copies on the incoming edge).
bool hoistable(const llvm::Instruction &i, unsigned k) {
  if (llvm::isa<llvm::BinaryOperator>(i) || llvm::isa<llvm::CmpInst>(i) ||
      llvm::isa<llvm::SelectInst>(i))
    return true;
  if (llvm::isa<llvm::StoreInst>(i))
    return k == 0;
  if (const auto *call = llvm::dyn_cast<llvm::CallInst>(&i)) {
    const llvm::Function *callee = call->getCalledFunction();
    if (!callee || k >= call->arg_size())
      return false;
    llvm::Intrinsic::ID id = callee->getIntrinsicID();
    return vectorOperationOpcode(callee->getName()) || id == llvm::Intrinsic::fmuladd ||
           id == llvm::Intrinsic::fma;
  }
  return false;
}

void hoistIn(llvm::Function &f) {
  llvm::DominatorTree dominators(f);
  llvm::LoopInfo loops(dominators);
  for (llvm::Loop *outer : loops)
    for (llvm::Loop *loop : llvm::depth_first(outer)) {
      llvm::BasicBlock *preheader = loop->getLoopPreheader();
      if (!preheader)
        continue;
      std::map<llvm::Value *, llvm::Instruction *> hoisted;
      for (llvm::BasicBlock *block : loop->blocks()) {
        if (loops.getLoopFor(block) != loop)
          continue; // an inner loop's block: its own preheader serves it
        for (llvm::Instruction &i : *block)
          for (unsigned k = 0; k < i.getNumOperands(); ++k) {
            llvm::Value *c = i.getOperand(k);
            if (!needsRegisters(c) || !hoistable(i, k))
              continue;
            llvm::Instruction *&frozen = hoisted[c];
            if (!frozen) {
              frozen = new llvm::FreezeInst(c, "const", preheader->getTerminator());
              frozen->setDebugLoc(i.getDebugLoc());
            }
            i.setOperand(k, frozen);
          }
      }
    }
}

} // namespace

void hoistLoopConstants(llvm::Module &m) {
  for (llvm::Function &f : m)
    if (!f.isDeclaration())
      hoistIn(f);
}

} // namespace popc
