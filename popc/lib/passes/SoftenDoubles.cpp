// Double precision in software: every double value becomes its i64 bits and every double
// operation a call into popc/runtime/Double.cpp, which the pipeline links in when used.
#include "passes/IRPasses.hpp"

#include "passes/MathFunctions.hpp"
#include "passes/PureCalls.hpp"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <map>
#include <set>

namespace popc {

namespace {

constexpr std::uint64_t kSignBit = std::uint64_t(1) << 63;

bool touchesDouble(const llvm::Instruction &i) {
  if (i.getType()->isDoubleTy())
    return true;
  for (const llvm::Value *op : i.operands())
    if (op->getType()->isDoubleTy())
      return true;
  return false;
}

/// A float (or half) promoted to double only to be printed: printf takes it as its f32 bits,
/// so it never becomes a double (CheckSupported and the lowering know this form).
bool onlyPrinted(const llvm::Instruction &i) {
  return llvm::isa<llvm::FPExtInst>(i) && !i.getOperand(0)->getType()->isDoubleTy() &&
         !i.user_empty() && llvm::all_of(i.users(), [](const llvm::User *u) {
           const auto *call = llvm::dyn_cast<llvm::CallInst>(u);
           return call && call->getCalledFunction() &&
                  isPrintf(call->getCalledFunction()->getName());
         });
}

class Softener {
public:
  explicit Softener(llvm::Module &m)
      : m_(m), i64_(llvm::Type::getInt64Ty(m.getContext())),
        i32_(llvm::Type::getInt32Ty(m.getContext())),
        double_(llvm::Type::getDoubleTy(m.getContext())) {}

  void run(llvm::Function &f) {
    std::vector<llvm::Instruction *> work;
    llvm::ReversePostOrderTraversal<llvm::Function *> order(&f);
    for (llvm::BasicBlock *bb : order)
      for (llvm::Instruction &i : *bb)
        if (touchesDouble(i) && !onlyPrinted(i))
          work.push_back(&i);
    if (work.empty())
      return;
    // Phis first, so that values flowing around a loop have their bits before they are read.
    for (llvm::Instruction *i : work)
      if (auto *phi = llvm::dyn_cast<llvm::PHINode>(i))
        if (phi->getType()->isDoubleTy())
          bits_[phi] = llvm::PHINode::Create(i64_, phi->getNumIncomingValues(), "", phi);
    std::vector<llvm::Instruction *> replaced;
    for (llvm::Instruction *i : work)
      if (soften(*i))
        replaced.push_back(i);
    for (llvm::Instruction *i : work)
      if (auto *phi = llvm::dyn_cast<llvm::PHINode>(i))
        if (phi->getType()->isDoubleTy())
          for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k)
            llvm::cast<llvm::PHINode>(bits_[phi])
                ->addIncoming(bitsOf(phi->getIncomingValue(k)), phi->getIncomingBlock(k));
    // Users left reading a double (a call argument, a return: CheckSupported reports them)
    // read the bits cast back; then the replaced instructions go.
    for (llvm::Instruction *i : replaced)
      if (i->getType()->isDoubleTy() && !i->use_empty()) {
        llvm::Instruction *at =
            llvm::isa<llvm::PHINode>(i) ? i->getParent()->getFirstNonPHI() : i->getNextNode();
        i->replaceAllUsesWith(new llvm::BitCastInst(bits_.at(i), double_, "", at));
      }
    for (llvm::Instruction *i : replaced)
      i->dropAllReferences();
    for (llvm::Instruction *i : replaced)
      i->eraseFromParent();
    bits_.clear();
  }

  bool usedRuntime() const { return usedRuntime_; }

private:
  /// The i64 bits of a double value.
  llvm::Value *bitsOf(llvm::Value *v) {
    if (auto *c = llvm::dyn_cast<llvm::ConstantFP>(v))
      return llvm::ConstantInt::get(i64_, c->getValueAPF().bitcastToAPInt());
    if (llvm::isa<llvm::UndefValue>(v))
      return llvm::UndefValue::get(i64_);
    auto it = bits_.find(v);
    if (it != bits_.end())
      return it->second;
    // A double from something left alone (an argument, a call): its bits where it is defined.
    llvm::Instruction *at;
    if (auto *arg = llvm::dyn_cast<llvm::Argument>(v))
      at = &*arg->getParent()->getEntryBlock().getFirstInsertionPt();
    else if (auto *phi = llvm::dyn_cast<llvm::PHINode>(v))
      at = phi->getParent()->getFirstNonPHI();
    else
      at = llvm::cast<llvm::Instruction>(v)->getNextNode();
    return bits_[v] = new llvm::BitCastInst(v, i64_, "", at);
  }

  llvm::Value *call(llvm::IRBuilder<> &b, const char *name, llvm::Type *result,
                    llvm::ArrayRef<llvm::Value *> args) {
    usedRuntime_ = true;
    return createPureCall(b, m_, name, result, args);
  }

  /// The bits of a float or half as a double.
  llvm::Value *widen(llvm::IRBuilder<> &b, llvm::Value *x) {
    if (x->getType()->isHalfTy())
      x = b.CreateFPExt(x, b.getFloatTy());
    return call(b, "__popc_f32_to_f64", i64_, {b.CreateBitCast(x, i32_)});
  }

  /// Builds the replacement of `i`; returns whether `i` is to be deleted.
  bool soften(llvm::Instruction &i) {
    llvm::IRBuilder<> b(&i);
    if (llvm::isa<llvm::PHINode>(i))
      return i.getType()->isDoubleTy();
    if (auto *op = llvm::dyn_cast<llvm::BinaryOperator>(&i)) {
      static const std::map<unsigned, const char *> functions = {
          {llvm::Instruction::FAdd, "__popc_dadd"},
          {llvm::Instruction::FSub, "__popc_dsub"},
          {llvm::Instruction::FMul, "__popc_dmul"},
          {llvm::Instruction::FDiv, "__popc_ddiv"}};
      auto it = functions.find(op->getOpcode());
      if (it == functions.end())
        return false; // frem: CheckSupported reports it
      bits_[&i] = call(b, it->second, i64_, {bitsOf(op->getOperand(0)), bitsOf(op->getOperand(1))});
      return true;
    }
    if (i.getOpcode() == llvm::Instruction::FNeg) {
      bits_[&i] = b.CreateXor(bitsOf(i.getOperand(0)), kSignBit);
      return true;
    }
    if (auto *cmp = llvm::dyn_cast<llvm::FCmpInst>(&i)) {
      // __popc_dcmp answers with one of the predicate bits (equal 1, greater 2, less 4,
      // unordered 8): the comparison holds if the predicate has it.
      llvm::Value *relation =
          call(b, "__popc_dcmp", i32_, {bitsOf(cmp->getOperand(0)), bitsOf(cmp->getOperand(1))});
      i.replaceAllUsesWith(
          b.CreateICmpNE(b.CreateAnd(relation, unsigned(cmp->getPredicate())), b.getInt32(0)));
      return true;
    }
    if (llvm::isa<llvm::FPExtInst>(i)) {
      bits_[&i] = widen(b, i.getOperand(0));
      return true;
    }
    if (llvm::isa<llvm::FPTruncInst>(i)) {
      llvm::Value *x = bitsOf(i.getOperand(0));
      llvm::Value *narrow =
          i.getType()->isHalfTy()
              ? b.CreateBitCast(
                    b.CreateTrunc(call(b, "__popc_f64_to_f16", i32_, {x}), b.getInt16Ty()),
                    b.getHalfTy())
              : b.CreateBitCast(call(b, "__popc_f64_to_f32", i32_, {x}), b.getFloatTy());
      i.replaceAllUsesWith(narrow);
      return true;
    }
    if (llvm::isa<llvm::SIToFPInst>(i) || llvm::isa<llvm::UIToFPInst>(i)) {
      bool isSigned = llvm::isa<llvm::SIToFPInst>(i);
      llvm::Value *x =
          isSigned ? b.CreateSExt(i.getOperand(0), i64_) : b.CreateZExt(i.getOperand(0), i64_);
      bits_[&i] = call(b, isSigned ? "__popc_i64_to_f64" : "__popc_u64_to_f64", i64_, {x});
      return true;
    }
    if (llvm::isa<llvm::FPToSIInst>(i) || llvm::isa<llvm::FPToUIInst>(i)) {
      bool isSigned = llvm::isa<llvm::FPToSIInst>(i);
      llvm::Value *x = call(b, isSigned ? "__popc_f64_to_i64" : "__popc_f64_to_u64", i64_,
                            {bitsOf(i.getOperand(0))});
      i.replaceAllUsesWith(b.CreateTrunc(x, i.getType()));
      return true;
    }
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i)) {
      llvm::Value *ptr = b.CreateBitCast(load->getPointerOperand(),
                                         i64_->getPointerTo(load->getPointerAddressSpace()));
      llvm::LoadInst *whole = b.CreateAlignedLoad(i64_, ptr, load->getAlign(), load->isVolatile());
      whole->copyMetadata(*load);
      bits_[&i] = whole;
      return true;
    }
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&i)) {
      llvm::Value *ptr = b.CreateBitCast(store->getPointerOperand(),
                                         i64_->getPointerTo(store->getPointerAddressSpace()));
      b.CreateAlignedStore(bitsOf(store->getValueOperand()), ptr, store->getAlign(),
                           store->isVolatile())
          ->copyMetadata(*store);
      return true;
    }
    if (auto *select = llvm::dyn_cast<llvm::SelectInst>(&i)) {
      if (!select->getType()->isDoubleTy())
        return false;
      bits_[&i] = b.CreateSelect(select->getCondition(), bitsOf(select->getTrueValue()),
                                 bitsOf(select->getFalseValue()));
      return true;
    }
    if (auto *cast = llvm::dyn_cast<llvm::BitCastInst>(&i)) {
      if (cast->getType()->isDoubleTy())
        bits_[&i] = b.CreateBitCast(cast->getOperand(0), i64_);
      else
        i.replaceAllUsesWith(b.CreateBitCast(bitsOf(cast->getOperand(0)), cast->getType()));
      return true;
    }
    if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&i)) {
      if (!intrinsic->getType()->isDoubleTy())
        return false;
      llvm::Value *x = bitsOf(intrinsic->getArgOperand(0));
      switch (intrinsic->getIntrinsicID()) {
      case llvm::Intrinsic::fabs:
        bits_[&i] = b.CreateAnd(x, ~kSignBit);
        return true;
      case llvm::Intrinsic::copysign:
        bits_[&i] = b.CreateOr(b.CreateAnd(x, ~kSignBit),
                               b.CreateAnd(bitsOf(intrinsic->getArgOperand(1)), kSignBit));
        return true;
      case llvm::Intrinsic::fmuladd: // may round twice
        bits_[&i] = call(b, "__popc_dadd", i64_,
                         {call(b, "__popc_dmul", i64_, {x, bitsOf(intrinsic->getArgOperand(1))}),
                          bitsOf(intrinsic->getArgOperand(2))});
        return true;
      default:
        return false;
      }
    }
    if (auto *c = llvm::dyn_cast<llvm::CallInst>(&i)) {
      // printf takes a double as the f32 bits of its value rounded to float.
      const llvm::Function *callee = c->getCalledFunction();
      if (!callee || !isPrintf(callee->getName()))
        return false;
      for (unsigned k = 1; k < c->arg_size(); ++k) {
        llvm::Value *arg = c->getArgOperand(k);
        if (!arg->getType()->isDoubleTy() || llvm::isa<llvm::ConstantFP>(arg) ||
            (llvm::isa<llvm::FPExtInst>(arg) && onlyPrinted(*llvm::cast<llvm::Instruction>(arg))))
          continue;
        llvm::Value *f =
            b.CreateBitCast(call(b, "__popc_f64_to_f32", i32_, {bitsOf(arg)}), b.getFloatTy());
        c->setArgOperand(k, b.CreateFPExt(f, double_));
      }
      return false;
    }
    return false;
  }

  llvm::Module &m_;
  llvm::Type *i64_, *i32_, *double_;
  std::map<llvm::Value *, llvm::Value *> bits_;
  bool usedRuntime_ = false;
};

} // namespace

bool softenDoubles(llvm::Module &m) {
  Softener softener(m);
  for (llvm::Function &f : m)
    if (!f.isDeclaration())
      softener.run(f);
  return softener.usedRuntime();
}

} // namespace popc
