// Hands the 64-bit vectors the ISA computes on (f32v2, f16v4) to the lowering as register
// pairs, before LLVM's scalarizer splits every other vector into its elements.
#include "passes/IRPasses.hpp"
#include "passes/MathFunctions.hpp"
#include "passes/PureCalls.hpp"

#include "isa/Isa.hpp"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

namespace popc {

using poplar::isa::Opcode;

namespace {

/// The vector instructions selected: an operation on vectors of `element` becomes a call to
/// `__popc_vector_<mnemonic>` on the vectors' bits (i64 for 64 bits, i32 for 32).
struct Selection {
  unsigned instruction;          ///< llvm::Instruction opcode, or 0 for an intrinsic
  llvm::Intrinsic::ID intrinsic; ///< with instruction 0
  bool half;                     ///< element type: half, else float
  Opcode op;
};
const Selection kSelections[] = {
    {llvm::Instruction::FAdd, 0, false, Opcode::F32v2add},
    {llvm::Instruction::FSub, 0, false, Opcode::F32v2sub},
    {llvm::Instruction::FMul, 0, false, Opcode::F32v2mul},
    {0, llvm::Intrinsic::fmuladd, false, Opcode::F32v2fma},
    {0, llvm::Intrinsic::fma, false, Opcode::F32v2fma},
    {llvm::Instruction::FAdd, 0, true, Opcode::F16v4add},
    {llvm::Instruction::FMul, 0, true, Opcode::F16v4mul},
    // fmuladd may round once; fma on half must, which f16v4fma (fused in f32, then rounded
    // to half) does not guarantee.
    {0, llvm::Intrinsic::fmuladd, true, Opcode::F16v4fma},
    {llvm::Instruction::FPExt, 0, true, Opcode::F16v2tof32v2},
    {llvm::Instruction::FPTrunc, 0, false, Opcode::F32v2tof16v2},
};

/// The bits of a vector type carried in registers: 64 (a pair) or 32, else 0.
unsigned carriedBits(const llvm::Type *t) {
  const auto *v = llvm::dyn_cast<llvm::FixedVectorType>(t);
  if (!v || !(v->getElementType()->isFloatingPointTy() || v->getElementType()->isIntegerTy()))
    return 0;
  unsigned bits = v->getNumElements() * v->getScalarSizeInBits();
  return bits == 64 || bits == 32 ? bits : 0;
}

class Selector {
public:
  explicit Selector(llvm::Module &m) : m_(m) {}

  void run(llvm::Function &f) {
    std::vector<llvm::Instruction *> work;
    for (llvm::Instruction &i : llvm::instructions(f))
      work.push_back(&i);
    for (llvm::Instruction *i : work)
      if (llvm::Value *replacement = select(*i)) {
        replacement->takeName(i);
        i->replaceAllUsesWith(replacement);
        i->eraseFromParent();
      }
    // Chains of bitcasts (a phi's input converted before the phi was, a shuffle's lanes): cast
    // once from the original, or use it if the casts undo each other, so that the lowering sees
    // one value, not copies, and the scalarizer never splits a bitcast between vectors of
    // other element types lane by lane.
    for (llvm::Instruction &i : llvm::instructions(f))
      if (auto *outer = llvm::dyn_cast<llvm::BitCastInst>(&i))
        if (auto *inner = llvm::dyn_cast<llvm::BitCastInst>(outer->getOperand(0))) {
          if (inner->getSrcTy() == outer->getDestTy())
            outer->replaceAllUsesWith(inner->getOperand(0));
          else
            outer->setOperand(0, inner->getOperand(0));
        }
  }

private:
  /// The carried integer form of a vector value: the operand of a bitcast made here, or a new
  /// bitcast (constants fold).
  llvm::Value *bits(llvm::IRBuilder<> &b, llvm::Value *v) {
    if (auto *cast = llvm::dyn_cast<llvm::BitCastInst>(v))
      if (cast->getSrcTy()->isIntegerTy(carriedBits(v->getType())))
        return cast->getOperand(0);
    return b.CreateBitCast(v, b.getIntNTy(carriedBits(v->getType())));
  }

  llvm::Value *call(llvm::IRBuilder<> &b, Opcode op, llvm::Type *result,
                    llvm::ArrayRef<llvm::Value *> args) {
    std::string name = std::string(kVectorOperationPrefix) + poplar::isa::info(op).mnemonic;
    return b.CreateBitCast(createPureCall(b, m_, name, b.getIntNTy(carriedBits(result)), args),
                           result);
  }

  llvm::Value *select(llvm::Instruction &i) {
    llvm::IRBuilder<> b(&i);
    // Loads, stores and phis of 32- and 64-bit vectors move them whole, as an i32 or an i64
    // (a register pair).
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i)) {
      unsigned n = carriedBits(load->getType());
      if (!n || load->getAlign().value() < 4)
        return nullptr;
      llvm::Type *carrier = b.getIntNTy(n);
      llvm::Value *ptr = b.CreateBitCast(load->getPointerOperand(),
                                         carrier->getPointerTo(load->getPointerAddressSpace()));
      llvm::LoadInst *whole =
          b.CreateAlignedLoad(carrier, ptr, load->getAlign(), load->isVolatile());
      whole->copyMetadata(*load);
      return b.CreateBitCast(whole, load->getType());
    }
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&i)) {
      llvm::Value *v = store->getValueOperand();
      unsigned n = carriedBits(v->getType());
      if (!n || store->getAlign().value() < 4)
        return nullptr;
      llvm::Value *ptr =
          b.CreateBitCast(store->getPointerOperand(),
                          b.getIntNTy(n)->getPointerTo(store->getPointerAddressSpace()));
      b.CreateAlignedStore(bits(b, v), ptr, store->getAlign(), store->isVolatile())
          ->copyMetadata(*store);
      store->eraseFromParent();
      return nullptr;
    }
    if (auto *phi = llvm::dyn_cast<llvm::PHINode>(&i)) {
      unsigned n = carriedBits(phi->getType());
      if (!n)
        return nullptr;
      llvm::PHINode *whole = b.CreatePHI(b.getIntNTy(n), phi->getNumIncomingValues());
      for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k) {
        llvm::IRBuilder<> at(phi->getIncomingBlock(k)->getTerminator());
        whole->addIncoming(bits(at, phi->getIncomingValue(k)), phi->getIncomingBlock(k));
      }
      b.SetInsertPoint(phi->getParent()->getFirstNonPHI());
      return b.CreateBitCast(whole, phi->getType());
    }
    // A shuffle of halves moves bits: as 16-bit integers the scalarizer splits it into shifts
    // and masks, not conversions to float and back (which would not keep a NaN's payload).
    if (auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(&i)) {
      auto *type = llvm::cast<llvm::FixedVectorType>(shuffle->getOperand(0)->getType());
      if (!type->getElementType()->isHalfTy())
        return nullptr;
      auto *lanes = llvm::FixedVectorType::get(b.getInt16Ty(), type->getNumElements());
      llvm::Value *moved = b.CreateShuffleVector(b.CreateBitCast(shuffle->getOperand(0), lanes),
                                                 b.CreateBitCast(shuffle->getOperand(1), lanes),
                                                 shuffle->getShuffleMask());
      return b.CreateBitCast(moved, shuffle->getType());
    }
    return selectArithmetic(b, i);
  }

  llvm::Value *selectArithmetic(llvm::IRBuilder<> &b, llvm::Instruction &i) {
    // The vector type an operation's row is keyed on: the result's, or a conversion's source.
    llvm::Type *keyType = llvm::isa<llvm::FPExtInst>(i) ? i.getOperand(0)->getType() : i.getType();
    if (llvm::isa<llvm::FPTruncInst>(i))
      keyType = i.getOperand(0)->getType();
    const auto *v = llvm::dyn_cast<llvm::FixedVectorType>(keyType);
    if (!v || !carriedBits(v) || !v->getElementType()->isFloatingPointTy())
      return nullptr;
    bool half = v->getElementType()->isHalfTy();
    if (carriedBits(i.getType()) == 0 ||
        (half ? v->getNumElements() != 4 && !llvm::isa<llvm::FPExtInst>(i)
              : v->getNumElements() != 2))
      return nullptr;
    const auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&i);
    unsigned opcode = i.getOpcode();
    // a - b on f16v4 is a + (-b): the IEEE result, signed zeros included.
    llvm::Value *negatedB = nullptr;
    if (half && opcode == llvm::Instruction::FSub) {
      opcode = llvm::Instruction::FAdd;
      negatedB = b.CreateXor(bits(b, i.getOperand(1)), 0x8000800080008000ull);
    }
    for (const Selection &s : kSelections) {
      bool matches = intrinsic ? s.instruction == 0 && s.intrinsic == intrinsic->getIntrinsicID()
                               : s.instruction == opcode;
      if (!matches || s.half != half)
        continue;
      std::vector<llvm::Value *> args;
      unsigned n = intrinsic ? intrinsic->arg_size() : i.getNumOperands();
      for (unsigned k = 0; k < n; ++k)
        args.push_back(k == 1 && negatedB ? negatedB : bits(b, i.getOperand(k)));
      return call(b, s.op, i.getType(), args);
    }
    return nullptr;
  }

  llvm::Module &m_;
};

} // namespace

void selectVectorInstructions(llvm::Module &m) {
  Selector selector(m);
  for (llvm::Function &f : m)
    if (!f.isDeclaration())
      selector.run(f);
}

} // namespace popc
