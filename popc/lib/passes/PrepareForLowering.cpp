// The IR shape the lowering expects: 64-bit division as loops, saturating arithmetic as compares
// and selects, vectors split into their elements, switches lowered to branches, critical edges
// split.
#include "passes/IRPasses.hpp"
#include "passes/RunPasses.hpp"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Scalar/DCE.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"
#include "llvm/Transforms/Utils/BreakCriticalEdges.h"
#include "llvm/Transforms/Utils/IntegerDivision.h"
#include "llvm/Transforms/Utils/LowerSwitch.h"

namespace popc {

namespace {

/// LLVM 14's scalarizer leaves vector loads and stores alone unless its command-line option
/// says otherwise; popc wants every vector value split (the lowering is scalar).
void scalarizeLoadsAndStores() {
  auto &options = llvm::cl::getRegisteredOptions();
  if (auto *o = options.lookup("scalarize-load-store"))
    static_cast<llvm::cl::opt<bool> *>(o)->setValue(true);
}

/// The IPU has no 64-bit divide (nor a 32-bit one): i64 division and remainder become LLVM's
/// shift-and-subtract loops, which the lowering handles as i64 arithmetic.
void expandWideDivision(llvm::Module &m) {
  std::vector<llvm::BinaryOperator *> divisions;
  for (llvm::Function &f : m)
    for (llvm::Instruction &i : llvm::instructions(f))
      if (auto *b = llvm::dyn_cast<llvm::BinaryOperator>(&i))
        if (b->getType()->isIntegerTy(64) && (b->getOpcode() == llvm::Instruction::UDiv ||
                                              b->getOpcode() == llvm::Instruction::SDiv ||
                                              b->getOpcode() == llvm::Instruction::URem ||
                                              b->getOpcode() == llvm::Instruction::SRem))
          divisions.push_back(b);
  for (llvm::BinaryOperator *b : divisions) {
    bool remainder =
        b->getOpcode() == llvm::Instruction::URem || b->getOpcode() == llvm::Instruction::SRem;
    if (remainder)
      llvm::expandRemainder(b);
    else
      llvm::expandDivision(b);
  }
}

/// LLVM's optimiser folds clamping code (`a > b ? a - b : 0`, a sum pinned at the type's limit)
/// into the saturating intrinsics; the tile has no saturating integer instructions, so each
/// becomes the plain operation, an overflow test and a select (on vectors too: the scalarizer
/// splits them afterwards).
void expandSaturatingArithmetic(llvm::Module &m) {
  std::vector<llvm::IntrinsicInst *> calls;
  for (llvm::Function &f : m)
    for (llvm::Instruction &i : llvm::instructions(f))
      if (auto *c = llvm::dyn_cast<llvm::IntrinsicInst>(&i))
        switch (c->getIntrinsicID()) {
        case llvm::Intrinsic::uadd_sat:
        case llvm::Intrinsic::usub_sat:
        case llvm::Intrinsic::sadd_sat:
        case llvm::Intrinsic::ssub_sat:
          calls.push_back(c);
          break;
        default:
          break;
        }
  for (llvm::IntrinsicInst *c : calls) {
    llvm::IRBuilder<> b(c);
    llvm::Value *x = c->getArgOperand(0), *y = c->getArgOperand(1);
    llvm::Type *t = x->getType();
    unsigned bits = t->getScalarSizeInBits();
    llvm::Value *result = nullptr;
    switch (c->getIntrinsicID()) {
    case llvm::Intrinsic::uadd_sat: {
      llvm::Value *sum = b.CreateAdd(x, y);
      result = b.CreateSelect(b.CreateICmpULT(sum, x), llvm::Constant::getAllOnesValue(t), sum);
      break;
    }
    case llvm::Intrinsic::usub_sat:
      result =
          b.CreateSelect(b.CreateICmpULT(x, y), llvm::Constant::getNullValue(t), b.CreateSub(x, y));
      break;
    default: {
      // Signed: the result overflowed when its sign disagrees with what the operands allow;
      // then it is INT_MIN for a negative x and INT_MAX otherwise ((x >> bits-1) ^ INT_MAX).
      bool add = c->getIntrinsicID() == llvm::Intrinsic::sadd_sat;
      llvm::Value *r = add ? b.CreateAdd(x, y) : b.CreateSub(x, y);
      llvm::Value *signs = add ? b.CreateAnd(b.CreateXor(x, r), b.CreateXor(y, r))
                               : b.CreateAnd(b.CreateXor(x, y), b.CreateXor(x, r));
      llvm::Value *overflow = b.CreateICmpSLT(signs, llvm::Constant::getNullValue(t));
      llvm::Value *limit =
          b.CreateXor(b.CreateAShr(x, bits - 1),
                      llvm::ConstantInt::get(t, llvm::APInt::getSignedMaxValue(bits)));
      result = b.CreateSelect(overflow, limit, r);
      break;
    }
    }
    c->replaceAllUsesWith(result);
    c->eraseFromParent();
  }
}

} // namespace

void prepareForLowering(llvm::Module &m) {
  expandWideDivision(m);
  expandSaturatingArithmetic(m);
  scalarizeLoadsAndStores();
  llvm::PassBuilder pb;
  llvm::FunctionPassManager fpm;
  // float2, half4, ... (ext_vector_type): element-wise scalar code; what cannot be split (a
  // vector argument of a call that was not inlined) stays for CheckSupported to report.
  fpm.addPass(llvm::ScalarizerPass());
  fpm.addPass(llvm::DCEPass());
  fpm.addPass(llvm::LowerSwitchPass());
  fpm.addPass(llvm::BreakCriticalEdgesPass());
  llvm::ModulePassManager mpm;
  mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
  runModulePasses(m, pb, std::move(mpm));
}

} // namespace popc
