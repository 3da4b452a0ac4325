// FunctionLowering: the state and helpers of instruction selection, shared by the
// Lower*.cpp files (one per kind of instruction).
//
// Value representation: an iN (N < 32) lives zero-extended in a 32-bit register; i1 is 0 or 1;
// a half lives as the f32 of the same value (ldh/sth convert), so fpext half->float is a move;
// an i64 lives in two registers, low and high word, a register pair where one is made (the IPU
// has no 64-bit integer unit: each operation is the sequence of 32-bit instructions it costs
// there), and takes two argument registers in calls (low first) and r1:r2 as a result. The
// 64-bit vectors SelectVectors leaves (float2, half4, ... at the edges of what it selected) live
// as an i64 does, their lanes packed as in memory; 32-bit vectors (half2, char4) in one register.
#pragma once

#include "Diagnostics.hpp"
#include "passes/Lowering.hpp"
#include "passes/MathFunctions.hpp"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>
#include <optional>

namespace popc::lowering {

using mir::Reg;
using poplar::isa::Opcode;

/// A memory operand: base register + immediate, possibly relative to a frame slot.
struct Address {
  Reg base = 0;
  std::int32_t offset = 0;
  int slot = -1;
};

/// An i64 value: its low and high 32-bit words.
struct Wide {
  Reg lo = 0, hi = 0;
};

class FunctionLowering {
public:
  FunctionLowering(const llvm::Function &f, mir::Function &out, const GlobalOffsets &globals,
                   const std::map<const llvm::Function *, mir::Function *> &functions,
                   std::map<std::string, std::uint32_t> &files, mir::Module &module,
                   SourceDiagnostics &diags)
      : f_(f), out_(out), globals_(globals), functions_(functions), files_(files), module_(module),
        diags_(diags), layout_(f.getParent()->getDataLayout()) {}

  bool run() {
    for (const llvm::BasicBlock &bb : f_) {
      out_.blocks.push_back(std::make_unique<mir::Block>());
      out_.blocks.back()->name = out_.name + "." + std::to_string(out_.blocks.size() - 1);
      blocks_[&bb] = out_.blocks.back().get();
    }
    unsigned argRegs = 0;
    for (const llvm::Argument &a : f_.args())
      argRegs += isWide(a.getType()) ? 2 : 1;
    if (argRegs > mir::NumArgRegs)
      return fail(f_, "functions with more than 8 argument registers (an i64 takes two) are "
                      "not supported yet");
    findCountedLoops();
    cur_ = blocks_[&f_.getEntryBlock()];
    Reg next = 1;
    for (const llvm::Argument &a : f_.args()) {
      if (isWide(a.getType())) {
        Wide w = wideFor(&a);
        emit(Opcode::Mov, w.lo, next++);
        emit(Opcode::Mov, w.hi, next++);
      } else {
        emit(Opcode::Mov, regFor(&a), next++);
      }
    }
    // Static allocas become frame slots before any code uses them.
    for (const llvm::Instruction &i : f_.getEntryBlock())
      if (const auto *a = llvm::dyn_cast<llvm::AllocaInst>(&i)) {
        std::uint64_t size = layout_.getTypeAllocSize(a->getAllocatedType()) *
                             llvm::cast<llvm::ConstantInt>(a->getArraySize())->getZExtValue();
        slots_[a] = out_.newSlot(std::max<std::uint64_t>(size, 1),
                                 std::max<std::uint32_t>(a->getAlign().value(), 4));
      }
    for (const llvm::BasicBlock &bb : f_) {
      cur_ = blocks_[&bb];
      if (bb.getSinglePredecessor())
        phiCopies(bb, *bb.getSinglePredecessor());
      for (const llvm::Instruction &i : bb) {
        loc_ = sourceLoc(i);
        if (!llvm::isa<llvm::PHINode>(i) && !lower(i))
          return false;
      }
    }
    return ok_;
  }

private:
  // ---- emission helpers ----
  mir::Inst &emit(Opcode op, Reg rd = 0, Reg ra = 0, Reg rb = 0, Reg rc = 0, std::int32_t imm = 0) {
    mir::Inst i;
    i.op = op;
    i.rd = rd;
    i.ra = ra;
    i.rb = rb;
    i.rc = rc;
    i.imm = imm;
    i.loc = loc_;
    cur_->insts.push_back(i);
    return cur_->insts.back();
  }
  Reg tmp() { return out_.newVirtual(); }

  mir::SourceLoc sourceLoc(const llvm::Instruction &i) {
    const llvm::DILocation *dl = i.getDebugLoc().get();
    if (!dl)
      return {};
    llvm::SmallString<256> path(dl->getFilename());
    if (!llvm::sys::path::is_absolute(path) && !dl->getDirectory().empty())
      llvm::sys::fs::make_absolute(dl->getDirectory(), path);
    auto [it, added] = files_.emplace(std::string(path), module_.files.size());
    if (added)
      module_.files.push_back(std::string(path));
    return {it->second, dl->getLine(), dl->getColumn()};
  }

  bool fail(const llvm::Instruction &i, const std::string &message) {
    diags_.error(i, message);
    ok_ = false;
    return false;
  }
  bool fail(const llvm::Function &f, const std::string &message) {
    diags_.error(f, message);
    ok_ = false;
    return false;
  }

  unsigned bitsOf(const llvm::Type *t) const {
    if (t->isIntegerTy())
      return t->getIntegerBitWidth();
    return 32;
  }

  /// Register holding an instruction's or argument's value (not constants).
  Reg regFor(const llvm::Value *v) {
    auto [it, added] = regs_.emplace(v, 0);
    if (added)
      it->second = tmp();
    return it->second;
  }

  /// i33..i64 and the 64-bit vectors: two registers.
  static bool isWide(const llvm::Type *t) { return wideBits(t) != 0; }
  /// The bits of a wide type: 64, or N for iN with 32 < N < 64 (which LLVM makes of masked i64
  /// values: it lives zero-extended, as narrow integers do), else 0.
  static unsigned wideBits(const llvm::Type *t) {
    if (t->isIntegerTy())
      return t->getIntegerBitWidth() > 32 && t->getIntegerBitWidth() <= 64 ? t->getIntegerBitWidth()
                                                                           : 0;
    const auto *v = llvm::dyn_cast<llvm::FixedVectorType>(t);
    return v && v->getPrimitiveSizeInBits() == 64 ? 64 : 0;
  }

  /// `a` (an N-bit value, zero-extended) sign-extended to 64 bits.
  Wide signExtendWide(Wide a, unsigned bits) {
    if (bits >= 64)
      return a;
    Reg t = tmp(), hi = tmp();
    emit(Opcode::Shli, t, a.hi, 0, 0, static_cast<std::int32_t>(64 - bits));
    emit(Opcode::Srai, hi, t, 0, 0, static_cast<std::int32_t>(64 - bits));
    return {a.lo, hi};
  }

  /// Restores the zero-extension of an N-bit wide result in `d`.
  void truncateWide(Wide d, unsigned bits) {
    if (bits < 64)
      emit(Opcode::Andi, d.hi, d.hi, 0, 0, static_cast<std::int32_t>((1u << (bits - 32)) - 1));
  }
  static bool touchesWide(const llvm::Instruction &i) {
    if (isWide(i.getType()))
      return true;
    for (const llvm::Value *op : i.operands())
      if (isWide(op->getType()))
        return true;
    return false;
  }

  /// The (low, high) registers of a 64-bit instruction or argument: a register pair, unless its
  /// low word was asked for alone first.
  Wide wideFor(const llvm::Value *v) {
    if (!regs_.count(v)) {
      Reg head = out_.newPair();
      regs_[v] = head;
      highRegs_[v] = head + 1;
    }
    auto [it, added] = highRegs_.emplace(v, 0);
    if (added)
      it->second = tmp();
    return {regFor(v), it->second};
  }

  /// The head of a register pair holding `w`: its own, or a copy.
  Reg pairOf(Wide w) {
    if (out_.isPairHead(w.lo) && w.hi == w.lo + 1)
      return w.lo;
    Reg p = out_.newPair();
    emit(Opcode::Mov, p, w.lo);
    emit(Opcode::Mov, p + 1, w.hi);
    return p;
  }

  /// The bits of a scalar or vector constant (lanes packed as in memory), if it has them.
  static std::optional<std::uint64_t> constantBits(const llvm::Constant *c) {
    if (llvm::isa<llvm::UndefValue>(c) || llvm::isa<llvm::ConstantAggregateZero>(c) ||
        llvm::isa<llvm::ConstantPointerNull>(c))
      return 0;
    if (const auto *i = llvm::dyn_cast<llvm::ConstantInt>(c))
      return i->getZExtValue();
    if (const auto *f = llvm::dyn_cast<llvm::ConstantFP>(c))
      return f->getValueAPF().bitcastToAPInt().getZExtValue();
    if (const auto *e = llvm::dyn_cast<llvm::ConstantExpr>(c))
      return e->getOpcode() == llvm::Instruction::BitCast ? constantBits(e->getOperand(0))
                                                          : std::nullopt;
    const auto *v = llvm::dyn_cast<llvm::FixedVectorType>(c->getType());
    if (!v || v->getPrimitiveSizeInBits() > 64)
      return std::nullopt;
    unsigned laneBits = v->getScalarSizeInBits();
    std::uint64_t bits = 0;
    for (unsigned k = 0; k < v->getNumElements(); ++k) {
      std::optional<std::uint64_t> lane = constantBits(c->getAggregateElement(k));
      if (!lane)
        return std::nullopt;
      bits |= (*lane & (~0ull >> (64 - laneBits))) << (k * laneBits);
    }
    return bits;
  }

  /// The two words of a 64-bit value, materialising constants in the current block.
  Wide wide(const llvm::Value *v) {
    if (const auto *c = llvm::dyn_cast<llvm::Constant>(v)) {
      if (std::optional<std::uint64_t> bits = constantBits(c))
        return {constant(std::uint32_t(*bits)), constant(std::uint32_t(*bits >> 32))};
    }
    if (llvm::isa<llvm::Instruction>(v) || llvm::isa<llvm::Argument>(v))
      return wideFor(v);
    diags_.error(*current_, "popc cannot materialise this 64-bit constant on the tile yet");
    ok_ = false;
    return {poplar::isa::kRegZero, poplar::isa::kRegZero};
  }

  Reg constant(std::uint32_t bits) {
    if (bits == 0)
      return poplar::isa::kRegZero;
    Reg r = tmp();
    emit(Opcode::Movi, r, 0, 0, 0, static_cast<std::int32_t>(bits));
    return r;
  }

  /// A register with the value of `v`, materialising constants and addresses in the current
  /// block.
  Reg value(const llvm::Value *v) {
    if (llvm::isa<llvm::Instruction>(v) || llvm::isa<llvm::Argument>(v)) {
      if (const auto *a = llvm::dyn_cast<llvm::AllocaInst>(v)) {
        Reg r = tmp();
        mir::Inst &i = emit(Opcode::Addi, r, poplar::isa::kRegSp);
        i.slot = slots_.at(a);
        return r;
      }
      return regFor(v);
    }
    if (const auto *c = llvm::dyn_cast<llvm::ConstantInt>(v)) {
      std::uint32_t bits = static_cast<std::uint32_t>(c->getZExtValue());
      if (bits == 0)
        return poplar::isa::kRegZero;
      Reg r = tmp();
      emit(Opcode::Movi, r, 0, 0, 0, static_cast<std::int32_t>(bits));
      return r;
    }
    if (const auto *c = llvm::dyn_cast<llvm::ConstantFP>(v)) {
      llvm::APFloat f = c->getValueAPF();
      bool lost = false;
      f.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven, &lost);
      return constant(static_cast<std::uint32_t>(f.bitcastToAPInt().getZExtValue()));
    }
    if (llvm::isa<llvm::ConstantPointerNull>(v) || llvm::isa<llvm::UndefValue>(v) ||
        llvm::isa<llvm::PoisonValue>(v))
      return poplar::isa::kRegZero;
    if (v->getType()->isVectorTy())
      if (std::optional<std::uint64_t> bits = constantBits(llvm::cast<llvm::Constant>(v)))
        return constant(std::uint32_t(*bits));
    if (const auto *g = llvm::dyn_cast<llvm::GlobalVariable>(v)) {
      Reg r = tmp();
      emit(Opcode::Addi, r, poplar::isa::kRegGp, 0, 0, globals_.at(g));
      return r;
    }
    if (const auto *ce = llvm::dyn_cast<llvm::ConstantExpr>(v)) {
      llvm::APInt offset(32, 0);
      const llvm::Value *base = v->stripAndAccumulateConstantOffsets(layout_, offset, true);
      if (const auto *g = llvm::dyn_cast<llvm::GlobalVariable>(base)) {
        Reg r = tmp();
        emit(Opcode::Addi, r, poplar::isa::kRegGp, 0, 0,
             globals_.at(g) + static_cast<std::int32_t>(offset.getSExtValue()));
        return r;
      }
      if (ce->isCast() && ce->getNumOperands() == 1)
        return value(ce->getOperand(0));
    }
    diags_.error(*current_, "popc cannot materialise this constant on the tile yet");
    ok_ = false;
    return poplar::isa::kRegZero;
  }

  /// Folds constant GEP offsets and frame slots into the address of a load or store.
  Address address(const llvm::Value *ptr) {
    llvm::APInt offset(32, 0);
    const llvm::Value *base = ptr->stripAndAccumulateConstantOffsets(layout_, offset, true);
    std::int32_t off = static_cast<std::int32_t>(offset.getSExtValue());
    if (const auto *a = llvm::dyn_cast<llvm::AllocaInst>(base))
      return {poplar::isa::kRegSp, off, slots_.at(a)};
    if (const auto *g = llvm::dyn_cast<llvm::GlobalVariable>(base))
      return {poplar::isa::kRegGp, static_cast<std::int32_t>(globals_.at(g)) + off, -1};
    if (base != ptr && (llvm::isa<llvm::Instruction>(base) || llvm::isa<llvm::Argument>(base)))
      return {value(base), off, -1};
    return {value(ptr), 0, -1};
  }

  /// rd = sign-extended value of a narrow integer register.
  Reg signExtend(Reg r, unsigned bits) {
    if (bits >= 32)
      return r;
    Reg d = tmp();
    if (bits == 8)
      emit(Opcode::Sext8, d, r);
    else if (bits == 16)
      emit(Opcode::Sext16, d, r);
    else {
      Reg s = tmp();
      emit(Opcode::Shli, s, r, 0, 0, 32 - bits);
      emit(Opcode::Srai, d, s, 0, 0, 32 - bits);
    }
    return d;
  }

  /// Restores the zero-extension invariant after an operation that may carry past bit N.
  void truncateInto(Reg d, Reg r, unsigned bits) {
    if (bits >= 32)
      emit(Opcode::Mov, d, r);
    else if (bits == 8)
      emit(Opcode::Zext8, d, r);
    else if (bits == 16)
      emit(Opcode::Zext16, d, r);
    else
      emit(Opcode::Andi, d, r, 0, 0, static_cast<std::int32_t>((1u << bits) - 1));
  }

  /// x rounded to an integral float, halfway cases to even (the ISA's fround rounds them away
  /// from zero): adding and subtracting 2^23 rounds in the nearest-even mode of fadd.
  Reg roundToEven(Reg x) {
    Reg a = tmp(), m = tmp(), up = tmp(), down = tmp(), sign = tmp(), t = tmp(), small = tmp(),
        r = tmp();
    emit(Opcode::Fabs, a, x);
    emit(Opcode::Movi, m, 0, 0, 0, 0x4b000000); // 2^23: every float above it is integral
    emit(Opcode::Fadd, up, a, m);
    emit(Opcode::Fsub, down, up, m);
    emit(Opcode::Andi, sign, x, 0, 0, static_cast<std::int32_t>(0x80000000u));
    emit(Opcode::Or, t, down, sign);
    emit(Opcode::Flt, small, a, m);
    emit(Opcode::Sel, r, t, x, small);
    return r;
  }

  /// Copies for the phis of `succ` on the edge from `pred`, at the current position.
  void phiCopies(const llvm::BasicBlock &succ, const llvm::BasicBlock &pred);

  /// Finds the loop counters that countLoops made: `br (icmp ne c, 0), E, X` where E leads
  /// back to the header of phi c and c's value from E is c - 1, used nowhere else. Such a
  /// branch becomes `brnzdec c, E`, and c - 1 lives in c's own register.
  void findCountedLoops();

  bool lower(const llvm::Instruction &i);
  bool lowerBinary(const llvm::BinaryOperator &i);
  bool lowerCompare(const llvm::CmpInst &i);
  bool lowerCast(const llvm::CastInst &i);
  bool lowerMemory(const llvm::Instruction &i);
  bool lowerCall(const llvm::CallInst &i);
  bool lowerMemIntrinsic(const llvm::MemIntrinsic &i);
  bool lowerBranch(const llvm::Instruction &i);
  bool lowerPrintf(const llvm::CallInst &i);
  bool lowerVectorOperation(const llvm::CallInst &i, Opcode op);
  bool lowerLane(const llvm::Instruction &i);
  bool lowerWide(const llvm::Instruction &i);
  bool lowerWideBinary(const llvm::BinaryOperator &i, Wide a, Wide c, Wide d);
  bool lowerWideIntrinsic(const llvm::CallInst &i, llvm::Intrinsic::ID id);
  Reg wideLess(Wide a, Wide b, bool isSigned);
  Reg unsignedWideToFloat(Wide v);
  Reg signedWideToFloat(Wide v);
  Wide floatToWide(Reg f, bool isSigned);
  void roundToHalf(Reg r) {
    Reg h = tmp();
    emit(Opcode::Ftoh, h, r);
    emit(Opcode::Htof, r, h);
  }
  Wide wideSub(Wide a, Wide b);
  Wide wideShift(llvm::Instruction::BinaryOps kind, Wide a, Reg amount);
  bool lowerFunnelShift(const llvm::CallInst &i, bool left);

  const llvm::Function &f_;
  mir::Function &out_;
  const GlobalOffsets &globals_;
  const std::map<const llvm::Function *, mir::Function *> &functions_;
  std::map<std::string, std::uint32_t> &files_;
  mir::Module &module_;
  SourceDiagnostics &diags_;
  const llvm::DataLayout &layout_;
  std::map<const llvm::BasicBlock *, mir::Block *> blocks_;
  std::map<const llvm::Value *, Reg> regs_;
  std::map<const llvm::Value *, Reg> highRegs_; ///< high words of i64 values
  std::map<const llvm::AllocaInst *, int> slots_;
  std::map<const llvm::Value *, const llvm::PHINode *> fusedDecrements_; ///< c - 1 -> c
  std::map<const llvm::BranchInst *, const llvm::PHINode *> countedBranches_;
  mir::Block *cur_ = nullptr;
  mir::SourceLoc loc_;
  const llvm::Instruction *current_ = nullptr;
  bool ok_ = true;
};

} // namespace popc::lowering
