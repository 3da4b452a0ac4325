// Loop versioning on the native tier's checks. A loop's window check is hoisted when its address
// is loop-invariant or an affine recurrence whose step is a constant that keeps the alignment or
// a loop-invariant value (a transpose's row stride), tested for alignment before the loop: the
// first and last addresses up to the loop's maximum backedge count are then checked once (a
// superset of the iterations that run, so the test is conservative); a budget check is hoisted when
// what is left falls by a constant per iteration. The loop is cloned: the original runs when every
// hoisted test passes, without those checks; the clone keeps them, so faults, budget stops and
// their refunds happen exactly where the interpreter has them. In the original, an address that
// a load or store post-increments up through the window is marked as not wrapping (nuw), so the
// vectoriser sees the loop's accesses as 64-bit recurrences.
#include "CheckVersioning.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <cstdint>
#include <vector>

namespace poplar::native {

using namespace llvm;

namespace {

constexpr const char *kWindow = "poplar.window", *kBudget = "poplar.budget";

Function *pureFunction(Module &m, const char *name, FunctionType *type) {
  if (Function *f = m.getFunction(name))
    return f;
  Function *f = Function::Create(type, Function::ExternalLinkage, name, m);
  for (auto attr :
       {Attribute::ReadNone, Attribute::NoUnwind, Attribute::WillReturn, Attribute::Speculatable})
    f->addFnAttr(attr);
  return f;
}

bool calls(const Instruction &i, const char *name) {
  const auto *call = dyn_cast<CallInst>(&i);
  const Function *f = call ? call->getCalledFunction() : nullptr;
  return f && f->getName() == name;
}

// A value as a loop-invariant start and a step per iteration: a constant (0 if the value is
// invariant), or a loop-invariant value (`variableStep`, with `step` 0).
struct Affine {
  const SCEV *start = nullptr;
  std::int64_t step = 0;
  const SCEV *variableStep = nullptr;
};

bool affineIn(const SCEV *s, const Loop &loop, ScalarEvolution &se, Affine &out) {
  if (se.isLoopInvariant(s, &loop)) {
    out = {s, 0};
  } else {
    const auto *rec = dyn_cast<SCEVAddRecExpr>(s);
    if (!rec || rec->getLoop() != &loop || !rec->isAffine())
      return false;
    const SCEV *step = rec->getStepRecurrence(se);
    if (const auto *c = dyn_cast<SCEVConstant>(step)) {
      if (c->getAPInt().getMinSignedBits() > 33)
        return false;
      out = {rec->getStart(), c->getAPInt().getSExtValue(), nullptr};
    } else {
      if (!se.isLoopInvariant(step, &loop) || step->getType()->getIntegerBitWidth() > 32 ||
          !isSafeToExpand(step, se))
        return false;
      out = {rec->getStart(), 0, step};
    }
  }
  return isSafeToExpand(out.start, se);
}

// Whether a check can leave the loop: its operand is affine in the loop's iteration (and, for
// a window check, the step keeps the alignment; for a budget check, what is left falls).
bool hoistable(CallInst &call, const Loop &loop, ScalarEvolution &se) {
  Affine a;
  if (!affineIn(se.getSCEV(call.getArgOperand(0)), loop, se, a))
    return false;
  if (calls(call, kBudget))
    return !a.variableStep && a.step <= 0 && loop.isLoopInvariant(call.getArgOperand(1));
  if (a.variableStep)
    return true; // its alignment is tested before the loop
  const auto k = cast<ConstantInt>(call.getArgOperand(3))->getZExtValue();
  return a.step % (std::int64_t(1) << k) == 0;
}

class Versioner {
public:
  Versioner(Function &f, LoopInfo &li, DominatorTree &dt, ScalarEvolution &se)
      : f_(f), li_(li), dt_(dt), se_(se) {}

  bool version(Loop &loop) {
    simplifyLoop(&loop, &dt_, &li_, &se_, nullptr, nullptr, false);
    formLCSSARecursively(loop, dt_, &li_, &se_);
    BasicBlock *preheader = loop.getLoopPreheader();
    if (!preheader || !loop.getLoopLatch())
      return false;
    std::vector<CallInst *> checks;
    for (BasicBlock *block : loop.blocks())
      for (Instruction &i : *block)
        if ((calls(i, kWindow) || calls(i, kBudget)) && hoistable(cast<CallInst>(i), loop, se_))
          checks.push_back(cast<CallInst>(&i));
    if (checks.empty())
      return false;

    // preheader (the tests) -> the original loop without the checks | a copy that keeps them.
    BasicBlock *fastEntry =
        SplitBlock(preheader, preheader->getTerminator(), &dt_, &li_, nullptr, "poplar.fast");
    SmallVector<BasicBlock *, 8> exits;
    loop.getUniqueExitBlocks(exits);
    ValueToValueMapTy map;
    SmallVector<BasicBlock *, 16> copies;
    Loop *checked =
        cloneLoopWithPreheader(fastEntry, preheader, &loop, map, ".checked", &li_, &dt_, copies);
    remapInstructionsInBlocks(copies, map);
    Instruction *jump = preheader->getTerminator();
    BranchInst *branch = BranchInst::Create(fastEntry, checked->getLoopPreheader(),
                                            ConstantInt::getFalse(f_.getContext()), jump);
    jump->eraseFromParent();
    // The exits (in LCSSA form, the only places loop values are used) gain the copy's edges.
    for (BasicBlock *exit : exits)
      for (PHINode &phi : exit->phis())
        for (unsigned n = phi.getNumIncomingValues(), k = 0; k < n; ++k) {
          BasicBlock *from = phi.getIncomingBlock(k);
          if (!loop.contains(from))
            continue;
          Value *v = phi.getIncomingValue(k);
          Value *copy = map.count(v) ? static_cast<Value *>(map[v]) : v;
          phi.addIncoming(copy, cast<BasicBlock>(map[from]));
        }

    // The fast loop loses the checks and their exits, so SCEV can count its iterations.
    std::vector<BinaryOperator *> steps;
    for (CallInst *call : checks) {
      BinaryOperator *step = calls(*call, kWindow) ? addressStep(*call, loop) : nullptr;
      if (step)
        steps.push_back(step);
      tests_.push_back({calls(*call, kBudget), call->getArgOperand(0), call->getArgOperand(1),
                        calls(*call, kWindow) ? call->getArgOperand(2) : nullptr,
                        calls(*call, kWindow)
                            ? unsigned(cast<ConstantInt>(call->getArgOperand(3))->getZExtValue())
                            : 0u,
                        step != nullptr});
      BasicBlock *block = call->getParent();
      call->replaceAllUsesWith(ConstantInt::getTrue(call->getContext()));
      call->eraseFromParent();
      ConstantFoldTerminator(block, true);
    }
    dt_.recalculate(f_);
    se_.forgetLoop(&loop);
    branch->setCondition(tests(loop, *branch));
    tests_.clear();
    // Where the tests pass, an address that steps up through the window never wraps, not even
    // at its last step: so it is a recurrence in 64 bits too, as the vectoriser needs it to tell
    // the loop's accesses apart.
    for (BinaryOperator *step : steps)
      step->setHasNoUnsignedWrap(true);
    dt_.recalculate(f_);
    se_.forgetLoop(&loop);
    return true;
  }

private:
  struct Test {
    bool budget;
    Value *operand, *second; // address and lo, or left and cost
    Value *span;             // window checks
    unsigned k;
    bool stepsAfterLast; // the address steps once more after the last access: test that too
  };

  // The step of a window check's address that is a header phi moving up by a constant below
  // 2^31 (`p = phi [start], [p + c]`), the post-increment of a load or store walking an array.
  static BinaryOperator *addressStep(CallInst &call, const Loop &loop) {
    auto *phi = dyn_cast<PHINode>(call.getArgOperand(0));
    if (!phi || phi->getParent() != loop.getHeader() || phi->getNumIncomingValues() != 2)
      return nullptr;
    auto *step = dyn_cast<BinaryOperator>(phi->getIncomingValueForBlock(loop.getLoopLatch()));
    auto *c = step && step->getOpcode() == Instruction::Add && step->getOperand(0) == phi
                  ? dyn_cast<ConstantInt>(step->getOperand(1))
                  : nullptr;
    return c && c->getValue().isStrictlyPositive() && c->getValue().ult(1u << 31) ? step : nullptr;
  }

  // The fast loop's condition, before `branch`: its iterations can be counted and every
  // hoisted check passes for all of them; false (the copy with checks) otherwise.
  Value *tests(Loop &loop, BranchInst &branch) {
    IRBuilder<> b(&branch);
    Value *all = assumeNoWrap(loop, b);
    se_.forgetLoop(&loop);
    PredicatedScalarEvolution pse(se_, loop);
    const SCEV *backedges = pse.getBackedgeTakenCount();
    if (isa<SCEVCouldNotCompute>(backedges) || !isSafeToExpand(backedges, se_))
      return ConstantInt::getFalse(f_.getContext());
    SCEVExpander expander(se_, f_.getParent()->getDataLayout(), "poplar.hoist");
    // The predicates SCEV needed to count (no wrap of the induction variable): true if broken.
    Value *broken = expander.expandCodeForPredicate(&pse.getUnionPredicate(), &branch);
    Value *count = b.CreateZExt(expander.expandCodeFor(backedges, backedges->getType(), &branch),
                                b.getInt64Ty());
    all = b.CreateAnd(all, b.CreateNot(broken));
    for (const Test &t : tests_) {
      Affine a;
      if (!affineIn(se_.getSCEV(t.operand), loop, se_, a))
        return ConstantInt::getFalse(f_.getContext());
      Value *first = expander.expandCodeFor(a.start, t.operand->getType(), &branch);
      // A 32-bit step as the signed 64-bit value the wrapping ISA arithmetic adds.
      Value *step = a.variableStep
                        ? b.CreateSExt(expander.expandCodeFor(a.variableStep,
                                                              a.variableStep->getType(), &branch),
                                       b.getInt64Ty())
                        : b.getInt64(a.step);
      all = b.CreateAnd(all, t.budget ? budgetTest(b, first, a.step, count, t.second)
                                      : windowTest(b, first, step, count, t));
    }
    return all;
  }

  // ISA arithmetic wraps, so an unsigned counted loop (i += c while i < n) may never end as far
  // as SCEV can tell. Where the loop continues while `i + c` is below an invariant bound, the
  // increment cannot wrap if the bound and the start leave room for c: that becomes part of
  // the test, and the exit compares a 64-bit copy of i instead, which SCEV can count.
  Value *assumeNoWrap(Loop &loop, IRBuilder<> &b) {
    Value *all = b.getTrue();
    SmallVector<BasicBlock *, 4> exiting;
    loop.getExitingBlocks(exiting);
    for (BasicBlock *block : exiting) {
      auto *branch = dyn_cast<BranchInst>(block->getTerminator());
      auto *cmp =
          branch && branch->isConditional() ? dyn_cast<ICmpInst>(branch->getCondition()) : nullptr;
      if (!cmp || !cmp->isUnsigned() || !cmp->isRelational())
        continue;
      const bool nextFirst = !loop.isLoopInvariant(cmp->getOperand(0));
      Value *next = cmp->getOperand(nextFirst ? 0 : 1), *bound = cmp->getOperand(nextFirst ? 1 : 0);
      // The loop stays while next < bound or next <= bound (as the branch reads the compare).
      ICmpInst::Predicate stay =
          loop.contains(branch->getSuccessor(0)) ? cmp->getPredicate() : cmp->getInversePredicate();
      if (!nextFirst)
        stay = ICmpInst::getSwappedPredicate(stay);
      auto *add = dyn_cast<BinaryOperator>(next);
      auto *step = add && add->getOpcode() == Instruction::Add
                       ? dyn_cast<ConstantInt>(add->getOperand(1))
                       : nullptr;
      auto *phi = add ? dyn_cast<PHINode>(add->getOperand(0)) : nullptr;
      if (!step || !phi || phi->getParent() != loop.getHeader() || !loop.isLoopInvariant(bound) ||
          (stay != ICmpInst::ICMP_ULT && stay != ICmpInst::ICMP_ULE) || step->isNegative() ||
          phi->getNumIncomingValues() != 2 ||
          phi->getIncomingValueForBlock(loop.getLoopLatch()) != add ||
          add->getType()->getIntegerBitWidth() > 32)
        continue;
      // Each increment's input is the start or a value that stayed below (or at) the bound.
      const std::uint64_t top = (std::uint64_t(1) << add->getType()->getIntegerBitWidth()) - 1;
      const std::uint64_t c = step->getZExtValue();
      const std::uint64_t maxBound = top - c + (stay == ICmpInst::ICMP_ULT ? 1 : 0);
      BasicBlock *preheader = loop.getLoopPreheader();
      Value *start = phi->getIncomingValueForBlock(preheader);
      all = b.CreateAnd(all,
                        b.CreateICmpULE(b.CreateZExt(bound, b.getInt64Ty()), b.getInt64(maxBound)));
      all = b.CreateAnd(all,
                        b.CreateICmpULE(b.CreateZExt(start, b.getInt64Ty()), b.getInt64(top - c)));
      // i and bound zero-extended compare as they do in 32 bits while nothing wraps.
      IRBuilder<> at(preheader->getTerminator());
      PHINode *wide = PHINode::Create(at.getInt64Ty(), 2, "poplar.iv", &loop.getHeader()->front());
      wide->addIncoming(at.CreateZExt(start, at.getInt64Ty()), preheader);
      at.SetInsertPoint(add->getNextNode());
      Value *wideNext = at.CreateAdd(wide, at.getInt64(c));
      wide->addIncoming(wideNext, loop.getLoopLatch());
      at.SetInsertPoint(branch);
      Value *wideBound = at.CreateZExt(bound, at.getInt64Ty());
      branch->setCondition(at.CreateICmp(cmp->getPredicate(), nextFirst ? wideNext : wideBound,
                                         nextFirst ? wideBound : wideNext));
    }
    return all;
  }

  // Every access from the first to the last iteration is aligned and in the window (a step
  // that is a multiple of the size keeps the first access's alignment). The addresses move
  // monotonically in 64 bits; with both ends in the window, so is every one, and the 32-bit
  // addresses the loop computes never wrapped. Constant steps fold the selects and the step's test.
  static Value *windowTest(IRBuilder<> &b, Value *start, Value *step, Value *count, const Test &t) {
    const std::int64_t size = std::int64_t(1) << t.k;
    Value *lo = b.CreateZExt(t.second, b.getInt64Ty());
    Value *first = b.CreateZExt(start, b.getInt64Ty());
    Value *last = b.CreateAdd(first, b.CreateMul(count, step));
    Value *up = b.CreateICmpSGE(step, b.getInt64(0));
    Value *low = b.CreateSelect(up, first, last), *high = b.CreateSelect(up, last, first);
    Value *aligned = b.CreateICmpEQ(b.CreateAnd(b.CreateOr(first, step), size - 1), b.getInt64(0));
    Value *fromLow = b.CreateICmpSGE(b.CreateAShr(low, t.k), lo);
    Value *toHigh = b.CreateICmpSLE(b.CreateAShr(high, t.k), b.CreateAdd(lo, t.span));
    Value *ok = b.CreateAnd(aligned, b.CreateAnd(fromLow, toHigh));
    if (t.stepsAfterLast) // the step past the last access stays a 32-bit address
      ok = b.CreateAnd(ok, b.CreateICmpULT(b.CreateAdd(last, step), b.getInt64(1ull << 32)));
    return ok;
  }

  // What is left falls by a constant per iteration, so the last iteration's is the least.
  // Budgets stay far below 2^63, so the signed compare sees a fall below zero as one.
  static Value *budgetTest(IRBuilder<> &b, Value *first, std::int64_t step, Value *count,
                           Value *cost) {
    Value *last = step ? b.CreateAdd(first, b.CreateMul(count, b.getInt64(step))) : first;
    return b.CreateAnd(b.CreateICmpSGE(last, cost), b.CreateICmpUGE(first, cost));
  }

  Function &f_;
  LoopInfo &li_;
  DominatorTree &dt_;
  ScalarEvolution &se_;
  std::vector<Test> tests_;
};

} // namespace

Function *windowCheck(Module &m) {
  auto &c = m.getContext();
  auto *i32 = Type::getInt32Ty(c);
  return pureFunction(
      m, kWindow,
      FunctionType::get(Type::getInt1Ty(c), {i32, i32, Type::getInt64Ty(c), i32}, false));
}

Function *budgetCheck(Module &m) {
  auto &c = m.getContext();
  auto *i64 = Type::getInt64Ty(c);
  return pureFunction(m, kBudget, FunctionType::get(Type::getInt1Ty(c), {i64, i64}, false));
}

PreservedAnalyses VersionCheckedLoops::run(Function &f, FunctionAnalysisManager &analyses) {
  auto &li = analyses.getResult<LoopAnalysis>(f);
  auto &dt = analyses.getResult<DominatorTreeAnalysis>(f);
  auto &se = analyses.getResult<ScalarEvolutionAnalysis>(f);
  std::vector<Loop *> innermost;
  for (Loop *loop : li.getLoopsInPreorder())
    if (loop->isInnermost())
      innermost.push_back(loop);
  Versioner versioner(f, li, dt, se);
  bool changed = false;
  for (Loop *loop : innermost)
    changed |= versioner.version(*loop);
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses LowerChecks::run(Function &f, FunctionAnalysisManager &) {
  std::vector<CallInst *> checks;
  for (BasicBlock &block : f)
    for (Instruction &i : block)
      if (calls(i, kWindow) || calls(i, kBudget))
        checks.push_back(cast<CallInst>(&i));
  for (CallInst *call : checks) {
    IRBuilder<> b(call);
    Value *ok;
    if (calls(*call, kBudget)) {
      ok = b.CreateICmpUGE(call->getArgOperand(0), call->getArgOperand(1));
    } else {
      // Steps.hpp inWindow: rotating right by k moves misaligned low bits to the top.
      Value *addr = call->getArgOperand(0);
      Value *k = call->getArgOperand(3);
      Value *rotated = cast<ConstantInt>(k)->isZero()
                           ? addr
                           : b.CreateIntrinsic(Intrinsic::fshr, {addr->getType()}, {addr, addr, k});
      Value *offset = b.CreateZExt(b.CreateSub(rotated, call->getArgOperand(1)), b.getInt64Ty());
      ok = b.CreateICmpSLE(offset, call->getArgOperand(2));
    }
    call->replaceAllUsesWith(ok);
    call->eraseFromParent();
  }
  return checks.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace poplar::native
