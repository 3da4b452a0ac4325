// Strength reduction of array addressing: an address that steps by a constant each loop
// iteration (a[i], with i an induction variable) becomes a pointer of its own, advanced at
// the end of each iteration, so the lowering can use post-increment loads and stores.
#include "passes/IRPasses.hpp"
#include "passes/InnermostLoops.hpp"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <vector>

namespace popc {

namespace {

/// A pointer that is only used as the address of loads and stores.
bool onlyAddresses(const llvm::Instruction &gep) {
  for (const llvm::User *u : gep.users()) {
    if (const auto *l = llvm::dyn_cast<llvm::LoadInst>(u)) {
      if (l->isVolatile())
        return false;
    } else if (const auto *s = llvm::dyn_cast<llvm::StoreInst>(u)) {
      if (s->isVolatile() || s->getValueOperand() == &gep)
        return false;
    } else {
      return false;
    }
  }
  return !gep.use_empty();
}

bool strideLoop(llvm::Loop &loop, llvm::ScalarEvolution &se, const llvm::DataLayout &layout) {
  llvm::BasicBlock *preheader = loop.getLoopPredecessor(), *latch = loop.getLoopLatch();
  if (!preheader || !latch)
    return false;
  // Affine addresses of this loop with a constant step, in program order.
  std::vector<std::pair<llvm::GetElementPtrInst *, const llvm::SCEVAddRecExpr *>> candidates;
  for (llvm::BasicBlock *bb : loop.blocks()) {
    for (llvm::Instruction &i : *bb) {
      auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&i);
      if (!gep || gep->hasAllConstantIndices() || !onlyAddresses(*gep) ||
          !se.isSCEVable(gep->getType()))
        continue;
      const auto *rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(se.getSCEV(gep));
      if (!rec || rec->getLoop() != &loop || !rec->isAffine() ||
          !llvm::isa<llvm::SCEVConstant>(rec->getStepRecurrence(se)) ||
          !se.isLoopInvariant(rec->getStart(), &loop) ||
          !llvm::isSafeToExpandAt(rec->getStart(), preheader->getTerminator(), se))
        continue;
      candidates.push_back({gep, rec});
    }
  }
  if (candidates.empty())
    return false;
  llvm::SCEVExpander expander(se, layout, "stride");
  llvm::BasicBlock *header = loop.getHeader();
  llvm::Type *i8ptr = llvm::Type::getInt8PtrTy(header->getContext());
  llvm::Type *i32 = llvm::Type::getInt32Ty(header->getContext());
  // Addresses that differ from an earlier one by a constant share its pointer.
  struct Stream {
    const llvm::SCEVAddRecExpr *rec;
    llvm::PHINode *phi;
  };
  std::vector<Stream> streams;
  for (auto [gep, rec] : candidates) {
    llvm::Value *address = nullptr;
    for (const Stream &s : streams) {
      if (s.rec->getStepRecurrence(se) != rec->getStepRecurrence(se))
        continue;
      const auto *diff =
          llvm::dyn_cast<llvm::SCEVConstant>(se.getMinusSCEV(rec->getStart(), s.rec->getStart()));
      if (!diff)
        continue;
      llvm::IRBuilder<> b(gep);
      address = b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), s.phi,
                                             unsigned(diff->getAPInt().getSExtValue()));
      break;
    }
    if (!address) {
      llvm::Value *start =
          expander.expandCodeFor(rec->getStart(), i8ptr, preheader->getTerminator());
      llvm::PHINode *phi =
          llvm::PHINode::Create(i8ptr, 2, gep->getName() + ".ptr", &header->front());
      llvm::IRBuilder<> b(latch->getTerminator());
      const auto *step = llvm::cast<llvm::SCEVConstant>(rec->getStepRecurrence(se));
      llvm::Value *next = b.CreateGEP(b.getInt8Ty(), phi,
                                      llvm::ConstantInt::get(i32, step->getAPInt().getSExtValue()),
                                      gep->getName() + ".next");
      for (llvm::BasicBlock *pred : llvm::predecessors(header))
        phi->addIncoming(pred == preheader ? start : next, pred);
      streams.push_back({rec, phi});
      address = phi;
    }
    llvm::IRBuilder<> b(gep);
    gep->replaceAllUsesWith(b.CreateBitCast(address, gep->getType()));
  }
  se.forgetLoop(&loop);
  for (auto [gep, rec] : candidates)
    llvm::RecursivelyDeleteTriviallyDeadInstructions(gep);
  return true;
}

} // namespace

void stridePointers(llvm::Module &m) { transformInnermostLoops(m, strideLoop); }

} // namespace popc
