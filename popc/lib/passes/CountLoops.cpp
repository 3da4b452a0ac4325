// Counted loops: a loop whose trip count is computable gets a down-counter that the latch
// tests against zero, so the lowering can end each iteration with one `brnzdec`.
#include "passes/IRPasses.hpp"
#include "passes/InnermostLoops.hpp"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

namespace popc {

namespace {

bool countLoop(llvm::Loop &loop, llvm::ScalarEvolution &se, const llvm::DataLayout &layout) {
  llvm::BasicBlock *preheader = loop.getLoopPredecessor(), *latch = loop.getLoopLatch();
  llvm::BasicBlock *header = loop.getHeader();
  if (!preheader || !latch || loop.getExitingBlock() != latch)
    return false;
  auto *br = llvm::dyn_cast<llvm::BranchInst>(latch->getTerminator());
  if (!br || !br->isConditional())
    return false;
  const llvm::SCEV *count = se.getBackedgeTakenCount(&loop);
  if (llvm::isa<llvm::SCEVCouldNotCompute>(count) || !count->getType()->isIntegerTy(32) ||
      !llvm::isSafeToExpandAt(count, preheader->getTerminator(), se))
    return false;
  llvm::SCEVExpander expander(se, layout, "count");
  llvm::Value *start = expander.expandCodeFor(count, count->getType(), preheader->getTerminator());
  // counter = backedge-taken count at entry; the latch branches back while it is nonzero and
  // decrements it (the lowering fuses the compare, the decrement and the branch).
  llvm::PHINode *counter = llvm::PHINode::Create(count->getType(), 2, "counter", &header->front());
  llvm::IRBuilder<> b(br);
  llvm::Value *more = b.CreateICmpNE(counter, b.getInt32(0), "counter.more");
  llvm::Value *next = b.CreateAdd(counter, b.getInt32(-1), "counter.next");
  counter->addIncoming(start, preheader);
  counter->addIncoming(next, latch);
  llvm::Value *old = br->getCondition();
  if (br->getSuccessor(0) != header)
    br->swapSuccessors();
  br->setCondition(more);
  llvm::RecursivelyDeleteTriviallyDeadInstructions(old);
  se.forgetLoop(&loop);
  return true;
}

} // namespace

void countLoops(llvm::Module &m) { transformInnermostLoops(m, countLoop); }

} // namespace popc
