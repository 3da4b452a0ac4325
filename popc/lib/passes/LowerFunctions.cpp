// Instruction selection: each LLVM instruction -> tile instructions over virtual registers.
//
// Value representation: an iN (N < 32) lives zero-extended in a 32-bit register; i1 is 0 or 1;
// a half lives as the f32 of the same value (ldh/sth convert), so fpext half->float is a move;
// an i64 lives in two registers, low and high word, a register pair where one is made (the IPU
// has no 64-bit integer unit: each operation is the sequence of 32-bit instructions it costs
// there), and takes two argument registers in calls (low first) and r1:r2 as a result. The
// 64-bit vectors SelectVectors leaves (float2, half4, ... at the edges of what it selected) live
// as an i64 does, their lanes packed as in memory; 32-bit vectors (half2, char4) in one register.
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

namespace popc {

using mir::Reg;
using poplar::isa::Opcode;

namespace {

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

void FunctionLowering::phiCopies(const llvm::BasicBlock &succ, const llvm::BasicBlock &pred) {
  // Phis read their inputs in parallel: copy every input to a temporary first.
  std::vector<std::pair<Reg, Reg>> moves;
  for (const llvm::PHINode &phi : succ.phis()) {
    current_ = &phi;
    const llvm::Value *in = phi.getIncomingValueForBlock(&pred);
    if (isWide(phi.getType())) {
      Wide from = wide(in), to = wideFor(&phi);
      Reg lo = tmp(), hi = tmp();
      emit(Opcode::Mov, lo, from.lo);
      emit(Opcode::Mov, hi, from.hi);
      moves.push_back({to.lo, lo});
      moves.push_back({to.hi, hi});
      continue;
    }
    Reg t = tmp();
    emit(Opcode::Mov, t, value(in));
    moves.push_back({regFor(&phi), t});
  }
  for (auto [phi, t] : moves)
    emit(Opcode::Mov, phi, t);
}

void FunctionLowering::findCountedLoops() {
  for (const llvm::BasicBlock &bb : f_) {
    const auto *br = llvm::dyn_cast<llvm::BranchInst>(bb.getTerminator());
    if (!br || !br->isConditional())
      continue;
    const auto *cmp = llvm::dyn_cast<llvm::ICmpInst>(br->getCondition());
    const llvm::BasicBlock *edge = br->getSuccessor(0);
    if (!cmp || !cmp->hasOneUse() || cmp->getPredicate() != llvm::CmpInst::ICMP_NE ||
        !llvm::PatternMatch::match(cmp->getOperand(1), llvm::PatternMatch::m_Zero()) ||
        !edge->getSinglePredecessor() || !edge->getSingleSuccessor())
      continue;
    const auto *counter = llvm::dyn_cast<llvm::PHINode>(cmp->getOperand(0));
    if (!counter || isWide(counter->getType()) ||
        counter->getParent() != edge->getSingleSuccessor() || counter->getBasicBlockIndex(edge) < 0)
      continue;
    const llvm::Value *next = counter->getIncomingValueForBlock(edge);
    const auto *dec = llvm::dyn_cast<llvm::BinaryOperator>(next);
    if (!dec || dec->getOpcode() != llvm::Instruction::Add || dec->getOperand(0) != counter ||
        !llvm::PatternMatch::match(dec->getOperand(1), llvm::PatternMatch::m_AllOnes()) ||
        !dec->hasOneUse() || dec->getParent() != &bb || !counter->hasNUses(2))
      continue;
    fusedDecrements_[dec] = counter;
    countedBranches_[br] = counter;
    regs_[dec] = regFor(counter); // brnzdec decrements the counter's own register
  }
}

bool FunctionLowering::lower(const llvm::Instruction &i) {
  current_ = &i;
  if (fusedDecrements_.count(&i))
    return true;
  if (llvm::isa<llvm::ExtractElementInst>(i) || llvm::isa<llvm::InsertElementInst>(i))
    return lowerLane(i);
  // GEP indices are i64 only in source, and address arithmetic wraps at 32 bits: the low words
  // suffice, and value() of an i64 is its low word.
  if (!llvm::isa<llvm::CallInst>(i) && !i.isTerminator() && !llvm::isa<llvm::PHINode>(i) &&
      !llvm::isa<llvm::GetElementPtrInst>(i) && touchesWide(i))
    return lowerWide(i);
  if (const auto *b = llvm::dyn_cast<llvm::BinaryOperator>(&i))
    return lowerBinary(*b);
  if (const auto *c = llvm::dyn_cast<llvm::CmpInst>(&i))
    return lowerCompare(*c);
  if (const auto *c = llvm::dyn_cast<llvm::CastInst>(&i))
    return lowerCast(*c);
  if (llvm::isa<llvm::LoadInst>(i) || llvm::isa<llvm::StoreInst>(i))
    return lowerMemory(i);
  if (const auto *c = llvm::dyn_cast<llvm::CallInst>(&i))
    return lowerCall(*c);
  if (i.isTerminator())
    return lowerBranch(i);
  switch (i.getOpcode()) {
  case llvm::Instruction::Alloca:
    return true; // a frame slot, addressed where used
  case llvm::Instruction::FNeg:
    emit(Opcode::Fneg, regFor(&i), value(i.getOperand(0)));
    return true;
  case llvm::Instruction::Select:
    emit(Opcode::Sel, regFor(&i), value(i.getOperand(1)), value(i.getOperand(2)),
         value(i.getOperand(0)));
    return true;
  case llvm::Instruction::Freeze:
    emit(Opcode::Mov, regFor(&i), value(i.getOperand(0)));
    return true;
  case llvm::Instruction::GetElementPtr: {
    const auto &gep = llvm::cast<llvm::GetElementPtrInst>(i);
    Reg acc = value(gep.getPointerOperand());
    std::int64_t constant = 0;
    for (auto it = llvm::gep_type_begin(gep); it != llvm::gep_type_end(gep); ++it) {
      const llvm::Value *idx = it.getOperand();
      if (llvm::StructType *st = it.getStructTypeOrNull()) {
        unsigned field = llvm::cast<llvm::ConstantInt>(idx)->getZExtValue();
        constant += layout_.getStructLayout(st)->getElementOffset(field);
        continue;
      }
      std::uint64_t size = layout_.getTypeAllocSize(it.getIndexedType());
      if (const auto *c = llvm::dyn_cast<llvm::ConstantInt>(idx)) {
        constant += c->getSExtValue() * static_cast<std::int64_t>(size);
        continue;
      }
      Reg index = signExtend(value(idx), bitsOf(idx->getType()));
      Reg scaled = tmp();
      if (llvm::isPowerOf2_64(size))
        emit(Opcode::Shli, scaled, index, 0, 0, llvm::Log2_64(size));
      else
        emit(Opcode::Muli, scaled, index, 0, 0, static_cast<std::int32_t>(size));
      Reg sum = tmp();
      emit(Opcode::Add, sum, acc, scaled);
      acc = sum;
    }
    if (constant == 0)
      emit(Opcode::Mov, regFor(&i), acc);
    else
      emit(Opcode::Addi, regFor(&i), acc, 0, 0, static_cast<std::int32_t>(constant));
    return true;
  }
  default:
    return fail(i,
                std::string("popc cannot lower the '") + i.getOpcodeName() + "' instruction yet");
  }
}

bool FunctionLowering::lowerBinary(const llvm::BinaryOperator &i) {
  unsigned bits = bitsOf(i.getType());
  Reg d = regFor(&i);
  const llvm::Value *lhs = i.getOperand(0), *rhs = i.getOperand(1);
  auto fp = [&](Opcode op) {
    emit(op, d, value(lhs), value(rhs));
    if (i.getType()->isHalfTy()) { // round to half precision, as storing would
      Reg h = tmp();
      emit(Opcode::Ftoh, h, d);
      emit(Opcode::Htof, d, h);
    }
    return true;
  };
  switch (i.getOpcode()) {
  case llvm::Instruction::FAdd:
    return fp(Opcode::Fadd);
  case llvm::Instruction::FSub:
    return fp(Opcode::Fsub);
  case llvm::Instruction::FMul:
    return fp(Opcode::Fmul);
  case llvm::Instruction::FDiv:
    return fp(Opcode::Fdiv);
  case llvm::Instruction::FRem:
    return fail(i, "floating-point remainder (fmod) is not supported on the tile yet");
  default:
    break;
  }
  struct Ops {
    Opcode reg, imm;
    bool signedInputs, wraps;
  };
  Ops ops;
  switch (i.getOpcode()) {
  case llvm::Instruction::Add:
    ops = {Opcode::Add, Opcode::Addi, false, true};
    break;
  case llvm::Instruction::Sub:
    ops = {Opcode::Sub, Opcode::Sub, false, true};
    break;
  case llvm::Instruction::Mul:
    ops = {Opcode::Mul, Opcode::Muli, false, true};
    break;
  case llvm::Instruction::And:
    ops = {Opcode::And, Opcode::Andi, false, false};
    break;
  case llvm::Instruction::Or:
    ops = {Opcode::Or, Opcode::Ori, false, false};
    break;
  case llvm::Instruction::Xor:
    ops = {Opcode::Xor, Opcode::Xori, false, false};
    break;
  case llvm::Instruction::Shl:
    ops = {Opcode::Shl, Opcode::Shli, false, true};
    break;
  case llvm::Instruction::LShr:
    ops = {Opcode::Shr, Opcode::Shri, false, false};
    break;
  case llvm::Instruction::AShr:
    ops = {Opcode::Sra, Opcode::Srai, true, true};
    break;
  case llvm::Instruction::SDiv:
    ops = {Opcode::Divs, Opcode::Divsi, true, true};
    break;
  case llvm::Instruction::UDiv:
    ops = {Opcode::Divu, Opcode::Divui, false, false};
    break;
  case llvm::Instruction::SRem:
    ops = {Opcode::Rems, Opcode::Remsi, true, true};
    break;
  case llvm::Instruction::URem:
    ops = {Opcode::Remu, Opcode::Remui, false, false};
    break;
  default:
    return fail(i, std::string("popc cannot lower '") + i.getOpcodeName() + "' yet");
  }
  bool narrow = bits < 32;
  Reg result = narrow && ops.wraps ? tmp() : d;
  Reg a = value(lhs);
  if (ops.signedInputs)
    a = signExtend(a, bits);
  const auto *c = llvm::dyn_cast<llvm::ConstantInt>(rhs);
  // Immediate forms take the constant as a signed 32-bit value.
  if (c && ops.imm != ops.reg && !(ops.signedInputs && narrow)) {
    emit(ops.imm, result, a, 0, 0, static_cast<std::int32_t>(c->getZExtValue()));
  } else {
    Reg b = value(rhs);
    if (ops.signedInputs)
      b = signExtend(b, bits);
    emit(ops.reg, result, a, b);
  }
  if (narrow && ops.wraps)
    truncateInto(d, result, bits);
  return true;
}

bool FunctionLowering::lowerCompare(const llvm::CmpInst &i) {
  Reg d = regFor(&i);
  if (const auto *fc = llvm::dyn_cast<llvm::FCmpInst>(&i)) {
    Reg a = value(fc->getOperand(0)), b = value(fc->getOperand(1));
    using P = llvm::CmpInst::Predicate;
    // Unordered predicates are the negation of the opposite ordered one.
    struct Row {
      P pred;
      Opcode op;
      bool negate;
    };
    static const Row rows[] = {
        {P::FCMP_OEQ, Opcode::Feq, false},  {P::FCMP_UNE, Opcode::Fne, false},
        {P::FCMP_OLT, Opcode::Flt, false},  {P::FCMP_OLE, Opcode::Fle, false},
        {P::FCMP_OGT, Opcode::Fgt, false},  {P::FCMP_OGE, Opcode::Fge, false},
        {P::FCMP_ORD, Opcode::Ford, false}, {P::FCMP_UNO, Opcode::Funo, false},
        {P::FCMP_UGE, Opcode::Flt, true},   {P::FCMP_UGT, Opcode::Fle, true},
        {P::FCMP_ULE, Opcode::Fgt, true},   {P::FCMP_ULT, Opcode::Fge, true}};
    P pred = fc->getPredicate();
    if (pred == P::FCMP_TRUE || pred == P::FCMP_FALSE) {
      emit(Opcode::Movi, d, 0, 0, 0, pred == P::FCMP_TRUE);
      return true;
    }
    if (pred == P::FCMP_UEQ || pred == P::FCMP_ONE) {
      // ueq = uno | oeq; one = ord & une.
      Reg x = tmp(), y = tmp();
      emit(pred == P::FCMP_UEQ ? Opcode::Funo : Opcode::Ford, x, a, b);
      emit(pred == P::FCMP_UEQ ? Opcode::Feq : Opcode::Fne, y, a, b);
      emit(pred == P::FCMP_UEQ ? Opcode::Or : Opcode::And, d, x, y);
      return true;
    }
    for (const Row &r : rows)
      if (r.pred == pred) {
        if (!r.negate) {
          emit(r.op, d, a, b);
        } else {
          Reg t = tmp();
          emit(r.op, t, a, b);
          emit(Opcode::Xori, d, t, 0, 0, 1);
        }
        return true;
      }
    return fail(i, "popc cannot lower this floating-point comparison yet");
  }
  const auto &ic = llvm::cast<llvm::ICmpInst>(i);
  unsigned bits = bitsOf(ic.getOperand(0)->getType());
  bool isSigned = ic.isSigned();
  Reg a = value(ic.getOperand(0));
  if (isSigned)
    a = signExtend(a, bits);
  using P = llvm::CmpInst::Predicate;
  static const std::tuple<P, Opcode, Opcode> rows[] = {
      {P::ICMP_EQ, Opcode::Cmpeq, Opcode::Cmpeqi},
      {P::ICMP_NE, Opcode::Cmpne, Opcode::Cmpnei},
      {P::ICMP_SLT, Opcode::Cmplt, Opcode::Cmplti},
      {P::ICMP_SLE, Opcode::Cmple, Opcode::Cmplei},
      {P::ICMP_SGT, Opcode::Cmpgt, Opcode::Cmpgti},
      {P::ICMP_SGE, Opcode::Cmpge, Opcode::Cmpgei},
      {P::ICMP_ULT, Opcode::Cmpltu, Opcode::Cmpltui},
      {P::ICMP_ULE, Opcode::Cmpleu, Opcode::Cmpleui},
      {P::ICMP_UGT, Opcode::Cmpgtu, Opcode::Cmpgtui},
      {P::ICMP_UGE, Opcode::Cmpgeu, Opcode::Cmpgeui}};
  for (const auto &[pred, reg, imm] : rows) {
    if (pred != ic.getPredicate())
      continue;
    const auto *c = llvm::dyn_cast<llvm::ConstantInt>(ic.getOperand(1));
    if (c && !(isSigned && bits < 32)) {
      emit(imm, d, a, 0, 0, static_cast<std::int32_t>(c->getZExtValue()));
    } else {
      Reg b = value(ic.getOperand(1));
      if (isSigned)
        b = signExtend(b, bits);
      emit(reg, d, a, b);
    }
    return true;
  }
  return fail(i, "popc cannot lower this integer comparison yet");
}

bool FunctionLowering::lowerCast(const llvm::CastInst &i) {
  Reg d = regFor(&i);
  const llvm::Value *src = i.getOperand(0);
  unsigned fromBits = bitsOf(src->getType()), toBits = bitsOf(i.getType());
  switch (i.getOpcode()) {
  case llvm::Instruction::ZExt:
  case llvm::Instruction::PtrToInt:
  case llvm::Instruction::IntToPtr:
  case llvm::Instruction::FPExt: // half is kept as its f32 value
    emit(Opcode::Mov, d, value(src));
    return true;
  case llvm::Instruction::Trunc:
    truncateInto(d, value(src), toBits);
    return true;
  case llvm::Instruction::SExt: {
    Reg s = signExtend(value(src), fromBits);
    truncateInto(d, s, toBits);
    return true;
  }
  case llvm::Instruction::FPTrunc: { // float -> half: round through the 16-bit pattern
    Reg h = tmp();
    emit(Opcode::Ftoh, h, value(src));
    emit(Opcode::Htof, d, h);
    return true;
  }
  case llvm::Instruction::FPToSI: {
    Reg t = tmp();
    emit(Opcode::Ftoi, t, value(src));
    truncateInto(d, t, toBits);
    return true;
  }
  case llvm::Instruction::FPToUI: {
    Reg t = tmp();
    emit(Opcode::Ftou, t, value(src));
    truncateInto(d, t, toBits);
    return true;
  }
  case llvm::Instruction::SIToFP:
    emit(Opcode::Itof, d, signExtend(value(src), fromBits));
    break;
  case llvm::Instruction::UIToFP:
    emit(Opcode::Utof, d, value(src));
    break;
  case llvm::Instruction::BitCast:
    if (src->getType()->isHalfTy() && i.getType()->isIntegerTy(16))
      emit(Opcode::Ftoh, d, value(src));
    else if (src->getType()->isIntegerTy(16) && i.getType()->isHalfTy())
      emit(Opcode::Htof, d, value(src));
    else
      emit(Opcode::Mov, d, value(src));
    return true;
  default:
    return fail(i, std::string("popc cannot lower '") + i.getOpcodeName() + "' yet");
  }
  if (i.getType()->isHalfTy()) {
    Reg h = tmp();
    emit(Opcode::Ftoh, h, d);
    emit(Opcode::Htof, d, h);
  }
  return true;
}

bool FunctionLowering::lowerMemory(const llvm::Instruction &i) {
  bool isLoad = llvm::isa<llvm::LoadInst>(i);
  llvm::Type *type = isLoad ? i.getType() : i.getOperand(0)->getType();
  const llvm::Value *ptr = isLoad ? i.getOperand(0) : i.getOperand(1);
  Opcode op;
  std::uint64_t size = layout_.getTypeStoreSize(type);
  if (type->isHalfTy())
    op = isLoad ? Opcode::Ldh : Opcode::Sth;
  else if (size == 1)
    op = isLoad ? Opcode::Ld8u : Opcode::St8;
  else if (size == 2)
    op = isLoad ? Opcode::Ld16u : Opcode::St16;
  else if (size == 4)
    op = isLoad ? Opcode::Ld32 : Opcode::St32;
  else
    return fail(i, "popc cannot load or store a value of " + std::to_string(size) + " bytes yet");
  if (!isLoad) {
    Reg stored = value(i.getOperand(0));
    Address a = address(ptr);
    emit(op, 0, a.base, stored, 0, a.offset).slot = a.slot;
    return true;
  }
  Address a = address(ptr);
  // A loaded bool may be any nonzero byte; registers hold i1 as 0 or 1.
  bool isBool = type->isIntegerTy(1);
  Reg d = isBool ? tmp() : regFor(&i);
  emit(op, d, a.base, 0, 0, a.offset).slot = a.slot;
  if (isBool)
    emit(Opcode::Cmpnei, regFor(&i), d, 0, 0, 0);
  return true;
}

bool FunctionLowering::lowerMemIntrinsic(const llvm::MemIntrinsic &i) {
  const auto *len = llvm::dyn_cast<llvm::ConstantInt>(i.getLength());
  if (!len || len->getZExtValue() > 256)
    return fail(i, "copies and fills of variable or large size (memcpy/memset) are not "
                   "supported on the tile yet; write a loop");
  std::uint64_t n = len->getZExtValue();
  Address dst = address(i.getDest());
  bool wide = i.getDestAlign().valueOrOne().value() >= 4 && n % 4 == 0;
  Address src;
  Reg fill = 0;
  if (const auto *t = llvm::dyn_cast<llvm::MemTransferInst>(&i)) {
    src = address(t->getSource());
    wide = wide && t->getSourceAlign().valueOrOne().value() >= 4;
  } else {
    const auto *set = llvm::cast<llvm::MemSetInst>(&i);
    fill = value(set->getValue());
    if (wide && fill != poplar::isa::kRegZero) {
      Reg w = tmp();
      emit(Opcode::Muli, w, fill, 0, 0, 0x01010101);
      fill = w;
    }
  }
  unsigned step = wide ? 4 : 1;
  // memmove: loading everything first keeps overlapping ranges right.
  std::vector<Reg> loaded;
  for (std::uint64_t k = 0; k < n; k += step) {
    if (!llvm::isa<llvm::MemTransferInst>(i))
      break;
    Reg r = tmp();
    mir::Inst &ld = emit(wide ? Opcode::Ld32 : Opcode::Ld8u, r, src.base, 0, 0,
                         src.offset + static_cast<std::int32_t>(k));
    ld.slot = src.slot;
    loaded.push_back(r);
  }
  for (std::uint64_t k = 0, idx = 0; k < n; k += step, ++idx) {
    Reg v = loaded.empty() ? fill : loaded[idx];
    mir::Inst &st = emit(wide ? Opcode::St32 : Opcode::St8, 0, dst.base, v, 0,
                         dst.offset + static_cast<std::int32_t>(k));
    st.slot = dst.slot;
  }
  return true;
}

bool FunctionLowering::lowerCall(const llvm::CallInst &i) {
  const llvm::Function *callee = i.getCalledFunction();
  if (const auto *mem = llvm::dyn_cast<llvm::MemIntrinsic>(&i))
    return lowerMemIntrinsic(*mem);
  llvm::Intrinsic::ID id = callee->getIntrinsicID();
  if (id && isIgnoredIntrinsic(id))
    return true;
  if (id && isWide(i.getType()))
    return lowerWideIntrinsic(i, id);
  if (id == llvm::Intrinsic::fshl || id == llvm::Intrinsic::fshr)
    return lowerFunnelShift(i, id == llvm::Intrinsic::fshl);
  std::optional<Opcode> op = id ? intrinsicOpcode(id) : mathFunctionOpcode(callee->getName());
  if (op && (callee->isDeclaration() || id)) {
    Reg d = regFor(&i);
    std::vector<Reg> args;
    for (unsigned k = 0; k < i.arg_size(); ++k)
      if (!(id == llvm::Intrinsic::ctlz || id == llvm::Intrinsic::cttz) || k == 0)
        args.push_back(value(i.getArgOperand(k)));
    args.resize(3, 0);
    emit(*op, d, args[0], args[1], args[2]);
    return true;
  }
  if (id == llvm::Intrinsic::abs) {
    Reg n = tmp();
    Reg a = value(i.getArgOperand(0));
    emit(Opcode::Sub, n, poplar::isa::kRegZero, a);
    emit(Opcode::Maxs, regFor(&i), a, n);
    return true;
  }
  if (id == llvm::Intrinsic::copysign) {
    Reg mag = tmp(), sign = tmp();
    emit(Opcode::Fabs, mag, value(i.getArgOperand(0)));
    emit(Opcode::Andi, sign, value(i.getArgOperand(1)), 0, 0,
         static_cast<std::int32_t>(0x80000000u));
    emit(Opcode::Or, regFor(&i), mag, sign);
    return true;
  }
  if (id == llvm::Intrinsic::rint || id == llvm::Intrinsic::nearbyint ||
      id == llvm::Intrinsic::lrint || id == llvm::Intrinsic::lround) {
    if (i.getType()->isIntegerTy(64))
      return fail(i, "64-bit integer results of lrint/lround are not supported on the tile yet");
    Reg x = value(i.getArgOperand(0));
    Reg rounded = id == llvm::Intrinsic::lround ? x : roundToEven(x);
    if (id == llvm::Intrinsic::rint || id == llvm::Intrinsic::nearbyint) {
      emit(Opcode::Mov, regFor(&i), rounded);
      return true;
    }
    if (id == llvm::Intrinsic::lround) {
      rounded = tmp();
      emit(Opcode::Fround, rounded, x);
    }
    emit(Opcode::Ftoi, regFor(&i), rounded);
    return true;
  }
  if (id == llvm::Intrinsic::trap) {
    emit(Opcode::Trap, 0, 0, 0, 0, 0);
    return true;
  }
  if (!id && isCsrRead(callee->getName())) {
    emit(Opcode::Wid, regFor(&i)); // CheckSupported allowed CSR_W_WSR__INDEX only
    return true;
  }
  if (!id && isPrintf(callee->getName()))
    return lowerPrintf(i);
  if (std::optional<Opcode> vector = vectorOperationOpcode(callee->getName()))
    return lowerVectorOperation(i, *vector);
  if (!id && isAssertFailure(callee->getName())) {
    emit(Opcode::Trap, 0, 0, 0, 0, poplar::isa::kTrapAssertion);
    return true;
  }
  auto it = functions_.find(callee);
  if (it == functions_.end())
    return fail(i, "call to '" + callee->getName().str() + "' cannot be lowered");
  std::vector<Reg> args;
  for (unsigned k = 0; k < i.arg_size(); ++k) {
    const llvm::Value *arg = i.getArgOperand(k);
    if (isWide(arg->getType())) {
      Wide w = wide(arg);
      args.insert(args.end(), {w.lo, w.hi});
    } else {
      args.push_back(value(arg));
    }
  }
  if (args.size() > mir::NumArgRegs)
    return fail(i, "calls with more than 8 argument registers (an i64 takes two) are not "
                   "supported yet");
  for (unsigned k = 0; k < args.size(); ++k)
    emit(Opcode::Mov, k + 1, args[k]);
  mir::Inst &call = emit(Opcode::Call);
  call.callee = it->second;
  call.callArgs = args.size();
  call.callResult = !i.getType()->isVoidTy();
  call.wideResult = isWide(i.getType());
  if (call.wideResult) {
    Wide w = wideFor(&i);
    emit(Opcode::Mov, w.lo, 1);
    emit(Opcode::Mov, w.hi, 2);
  } else if (call.callResult) {
    emit(Opcode::Mov, regFor(&i), 1);
  }
  return true;
}

Reg FunctionLowering::wideLess(Wide a, Wide b, bool isSigned) {
  Reg hiLess = tmp(), hiEq = tmp(), loLess = tmp(), both = tmp(), d = tmp();
  emit(isSigned ? Opcode::Cmplt : Opcode::Cmpltu, hiLess, a.hi, b.hi);
  emit(Opcode::Cmpeq, hiEq, a.hi, b.hi);
  emit(Opcode::Cmpltu, loLess, a.lo, b.lo);
  emit(Opcode::And, both, hiEq, loLess);
  emit(Opcode::Or, d, hiLess, both);
  return d;
}

Reg FunctionLowering::unsignedWideToFloat(Wide v) {
  // hi = 0: utof rounds lo correctly. Otherwise shift the top set bit to bit 63; the high word
  // has 8 bits below float's 24, so OR-ing the rest in as a sticky bit keeps utof's rounding
  // correct; then scale by 2^(32 - shift), exactly.
  Reg n = tmp(), small = tmp(), sticky = tmp(), top = tmp(), t = tmp(), scale = tmp(), e = tmp(),
      big = tmp(), lowOnly = tmp(), r = tmp();
  emit(Opcode::Clz, n, v.hi);
  Wide shifted = wideShift(llvm::Instruction::Shl, v, n);
  emit(Opcode::Cmpnei, sticky, shifted.lo, 0, 0, 0);
  emit(Opcode::Or, top, shifted.hi, sticky);
  emit(Opcode::Utof, t, top);
  emit(Opcode::Sub, e, poplar::isa::kRegZero, n); // 2^(32 - n): exponent bits (159 - n) << 23
  emit(Opcode::Addi, e, e, 0, 0, 159);
  emit(Opcode::Shli, scale, e, 0, 0, 23);
  emit(Opcode::Fmul, big, t, scale);
  emit(Opcode::Utof, lowOnly, v.lo);
  emit(Opcode::Cmpeqi, small, v.hi, 0, 0, 0);
  emit(Opcode::Sel, r, lowOnly, big, small);
  return r;
}

Reg FunctionLowering::signedWideToFloat(Wide v) {
  Reg negative = tmp(), mlo = tmp(), mhi = tmp(), f = tmp(), nf = tmp(), r = tmp();
  emit(Opcode::Cmplti, negative, v.hi, 0, 0, 0);
  Wide n = wideSub({poplar::isa::kRegZero, poplar::isa::kRegZero}, v);
  emit(Opcode::Sel, mlo, n.lo, v.lo, negative);
  emit(Opcode::Sel, mhi, n.hi, v.hi, negative);
  emit(Opcode::Mov, f, unsignedWideToFloat({mlo, mhi}));
  emit(Opcode::Fneg, nf, f);
  emit(Opcode::Sel, r, nf, f, negative);
  return r;
}

Wide FunctionLowering::floatToWide(Reg f, bool isSigned) {
  // |f| < 2^32: ftou of the truncated magnitude. Above, f is a multiple of 2^9: the high word
  // is trunc(|f| / 2^32) and |f| - high * 2^32 is exact. NaN converts to 0 as ftou does.
  Reg a = tmp(), inv = tmp(), scaled = tmp(), hi = tmp(), hiF = tmp(), two32 = tmp(),
      hiPart = tmp(), rest = tmp(), lo = tmp(), small = tmp(), smallLo = tmp();
  emit(Opcode::Fabs, a, f);
  emit(Opcode::Movi, inv, 0, 0, 0, 0x2f800000);   // 2^-32
  emit(Opcode::Movi, two32, 0, 0, 0, 0x4f800000); // 2^32
  emit(Opcode::Fmul, scaled, a, inv);
  emit(Opcode::Ftou, hi, scaled);
  emit(Opcode::Utof, hiF, hi);
  emit(Opcode::Fmul, hiPart, hiF, two32);
  emit(Opcode::Fsub, rest, a, hiPart);
  emit(Opcode::Ftou, lo, rest);
  emit(Opcode::Flt, small, a, two32);
  emit(Opcode::Ftou, smallLo, a);
  Wide m{tmp(), tmp()};
  emit(Opcode::Sel, m.lo, smallLo, lo, small);
  emit(Opcode::Sel, m.hi, poplar::isa::kRegZero, hi, small);
  if (!isSigned)
    return m;
  Reg negative = tmp();
  emit(Opcode::Flt, negative, f, poplar::isa::kRegZero);
  Wide n = wideSub({poplar::isa::kRegZero, poplar::isa::kRegZero}, m);
  Wide d{tmp(), tmp()};
  emit(Opcode::Sel, d.lo, n.lo, m.lo, negative);
  emit(Opcode::Sel, d.hi, n.hi, m.hi, negative);
  return d;
}

Wide FunctionLowering::wideSub(Wide a, Wide b) {
  Wide d{tmp(), tmp()};
  Reg borrow = tmp(), hi = tmp();
  emit(Opcode::Sub, d.lo, a.lo, b.lo);
  emit(Opcode::Cmpltu, borrow, a.lo, b.lo);
  emit(Opcode::Sub, hi, a.hi, b.hi);
  emit(Opcode::Sub, d.hi, hi, borrow);
  return d;
}

Wide FunctionLowering::wideShift(llvm::Instruction::BinaryOps kind, Wide a, Reg n) {
  // n < 32 moves bits across the word boundary; n >= 32 moves a whole word (the ISA's shifts
  // take the amount mod 32, so `x << n` is also x << (n - 32) then). (x >> 1) >> (31 - n)
  // is x >> (32 - n) without a shift by 32 when n = 0.
  Wide d{tmp(), tmp()};
  Reg small = tmp(), m = tmp();
  emit(Opcode::Cmpltui, small, n, 0, 0, 32);
  emit(Opcode::Xori, m, n, 0, 0, 31);
  Reg moved = tmp(), kept = tmp(), spill = tmp(), across = tmp(), joined = tmp();
  if (kind == llvm::Instruction::Shl) {
    emit(Opcode::Shl, moved, a.lo, n);
    emit(Opcode::Shl, kept, a.hi, n);
    emit(Opcode::Shri, spill, a.lo, 0, 0, 1);
    emit(Opcode::Shr, across, spill, m);
    emit(Opcode::Or, joined, kept, across);
    emit(Opcode::Sel, d.lo, moved, poplar::isa::kRegZero, small);
    emit(Opcode::Sel, d.hi, joined, moved, small);
    return d;
  }
  bool arithmetic = kind == llvm::Instruction::AShr;
  Reg fill = poplar::isa::kRegZero;
  if (arithmetic) {
    fill = tmp();
    emit(Opcode::Srai, fill, a.hi, 0, 0, 31);
  }
  emit(arithmetic ? Opcode::Sra : Opcode::Shr, moved, a.hi, n);
  emit(Opcode::Shr, kept, a.lo, n);
  emit(Opcode::Shli, spill, a.hi, 0, 0, 1);
  emit(Opcode::Shl, across, spill, m);
  emit(Opcode::Or, joined, kept, across);
  emit(Opcode::Sel, d.hi, moved, fill, small);
  emit(Opcode::Sel, d.lo, joined, moved, small);
  return d;
}

/// An i64 (or 64-bit vector) binary operation into d.
bool FunctionLowering::lowerWideBinary(const llvm::BinaryOperator &i, Wide a, Wide c, Wide d) {
  switch (i.getOpcode()) {
  case llvm::Instruction::Add: {
    Reg carry = tmp(), hi = tmp();
    emit(Opcode::Add, d.lo, a.lo, c.lo);
    emit(Opcode::Cmpltu, carry, d.lo, a.lo);
    emit(Opcode::Add, hi, a.hi, c.hi);
    emit(Opcode::Add, d.hi, hi, carry);
    return true;
  }
  case llvm::Instruction::Sub: {
    Wide r = wideSub(a, c);
    emit(Opcode::Mov, d.lo, r.lo);
    emit(Opcode::Mov, d.hi, r.hi);
    return true;
  }
  case llvm::Instruction::Mul: {
    // (ah 2^32 + al)(ch 2^32 + cl) mod 2^64: al*cl in full, the cross terms' low words.
    Reg h1 = tmp(), h2 = tmp(), h3 = tmp(), h12 = tmp();
    emit(Opcode::Mul, d.lo, a.lo, c.lo);
    emit(Opcode::Mulhu, h1, a.lo, c.lo);
    emit(Opcode::Mul, h2, a.lo, c.hi);
    emit(Opcode::Mul, h3, a.hi, c.lo);
    emit(Opcode::Add, h12, h1, h2);
    emit(Opcode::Add, d.hi, h12, h3);
    return true;
  }
  case llvm::Instruction::And:
  case llvm::Instruction::Or:
  case llvm::Instruction::Xor: {
    Opcode op = i.getOpcode() == llvm::Instruction::And  ? Opcode::And
                : i.getOpcode() == llvm::Instruction::Or ? Opcode::Or
                                                         : Opcode::Xor;
    emit(op, d.lo, a.lo, c.lo);
    emit(op, d.hi, a.hi, c.hi);
    return true;
  }
  case llvm::Instruction::Shl:
  case llvm::Instruction::LShr:
  case llvm::Instruction::AShr: {
    Wide r = wideShift(i.getOpcode(), a, c.lo);
    emit(Opcode::Mov, d.lo, r.lo);
    emit(Opcode::Mov, d.hi, r.hi);
    return true;
  }
  default:
    // Division and remainder were expanded into loops before the lowering.
    return fail(i, std::string("popc cannot lower the 64-bit '") + i.getOpcodeName() +
                       "' instruction yet");
  }
}

bool FunctionLowering::lowerWide(const llvm::Instruction &i) {
  if (const auto *b = llvm::dyn_cast<llvm::BinaryOperator>(&i)) {
    Wide a = wide(b->getOperand(0)), c = wide(b->getOperand(1)), d = wideFor(&i);
    unsigned bits = wideBits(i.getType());
    if (bits < 64) { // iN: the 64-bit operation on the extended values, then the low N bits
      if (b->getOpcode() == llvm::Instruction::AShr)
        a = signExtendWide(a, bits);
      Wide r{tmp(), tmp()};
      if (!lowerWideBinary(*b, a, c, r))
        return false;
      emit(Opcode::Mov, d.lo, r.lo);
      emit(Opcode::Mov, d.hi, r.hi);
      truncateWide(d, bits);
      return true;
    }
    return lowerWideBinary(*b, a, c, d);
  }
  if (const auto *cmp = llvm::dyn_cast<llvm::ICmpInst>(&i)) {
    Wide a = wide(cmp->getOperand(0)), b = wide(cmp->getOperand(1));
    if (cmp->isSigned()) {
      unsigned bits = wideBits(cmp->getOperand(0)->getType());
      a = signExtendWide(a, bits);
      b = signExtendWide(b, bits);
    }
    Reg d = regFor(&i);
    using P = llvm::CmpInst::Predicate;
    P pred = cmp->getPredicate();
    if (pred == P::ICMP_EQ || pred == P::ICMP_NE) {
      Reg x = tmp(), y = tmp(), z = tmp();
      emit(Opcode::Xor, x, a.lo, b.lo);
      emit(Opcode::Xor, y, a.hi, b.hi);
      emit(Opcode::Or, z, x, y);
      emit(pred == P::ICMP_EQ ? Opcode::Cmpeqi : Opcode::Cmpnei, d, z, 0, 0, 0);
      return true;
    }
    // a < b, b < a, or their negations.
    bool swap =
        pred == P::ICMP_UGT || pred == P::ICMP_SGT || pred == P::ICMP_ULE || pred == P::ICMP_SLE;
    bool negate =
        pred == P::ICMP_UGE || pred == P::ICMP_SGE || pred == P::ICMP_ULE || pred == P::ICMP_SLE;
    Reg less = swap ? wideLess(b, a, cmp->isSigned()) : wideLess(a, b, cmp->isSigned());
    if (negate)
      emit(Opcode::Xori, d, less, 0, 0, 1);
    else
      emit(Opcode::Mov, d, less);
    return true;
  }
  if (const auto *c = llvm::dyn_cast<llvm::CastInst>(&i)) {
    const llvm::Value *src = c->getOperand(0);
    switch (c->getOpcode()) {
    case llvm::Instruction::BitCast: { // between i64 and the 64-bit vectors: the same bits
      if (!isWide(src->getType()) || !isWide(i.getType()))
        return fail(i, "popc cannot lower this 64-bit bitcast yet");
      Wide a = wide(src), d = wideFor(&i);
      emit(Opcode::Mov, d.lo, a.lo);
      emit(Opcode::Mov, d.hi, a.hi);
      return true;
    }
    case llvm::Instruction::ZExt:
    case llvm::Instruction::PtrToInt: {
      Wide d = wideFor(&i);
      Wide a = isWide(src->getType()) ? wide(src) : Wide{value(src), poplar::isa::kRegZero};
      emit(Opcode::Mov, d.lo, a.lo);
      emit(Opcode::Mov, d.hi, a.hi);
      return true;
    }
    case llvm::Instruction::SExt: {
      Wide d = wideFor(&i);
      if (isWide(src->getType())) {
        Wide a = signExtendWide(wide(src), wideBits(src->getType()));
        emit(Opcode::Mov, d.lo, a.lo);
        emit(Opcode::Mov, d.hi, a.hi);
      } else {
        emit(Opcode::Mov, d.lo, signExtend(value(src), bitsOf(src->getType())));
        emit(Opcode::Srai, d.hi, d.lo, 0, 0, 31);
      }
      truncateWide(d, wideBits(i.getType()));
      return true;
    }
    case llvm::Instruction::Trunc:
      if (isWide(i.getType())) { // i64 -> i33..i63
        Wide a = wide(src), d = wideFor(&i);
        emit(Opcode::Mov, d.lo, a.lo);
        emit(Opcode::Mov, d.hi, a.hi);
        truncateWide(d, wideBits(i.getType()));
        return true;
      }
      truncateInto(regFor(&i), wide(src).lo, bitsOf(i.getType()));
      return true;
    case llvm::Instruction::IntToPtr:
      emit(Opcode::Mov, regFor(&i), wide(src).lo);
      return true;
    case llvm::Instruction::UIToFP:
    case llvm::Instruction::SIToFP: {
      Wide v = wide(src);
      if (c->getOpcode() == llvm::Instruction::SIToFP)
        v = signExtendWide(v, wideBits(src->getType()));
      Reg r = c->getOpcode() == llvm::Instruction::SIToFP ? signedWideToFloat(v)
                                                          : unsignedWideToFloat(v);
      if (i.getType()->isHalfTy()) // below 2^24 (above, a half overflows): one rounding
        roundToHalf(r);
      emit(Opcode::Mov, regFor(&i), r);
      return true;
    }
    case llvm::Instruction::FPToUI:
    case llvm::Instruction::FPToSI: {
      Wide r = floatToWide(value(src), c->getOpcode() == llvm::Instruction::FPToSI);
      Wide d = wideFor(&i);
      emit(Opcode::Mov, d.lo, r.lo);
      emit(Opcode::Mov, d.hi, r.hi);
      truncateWide(d, wideBits(i.getType()));
      return true;
    }
    default:
      return fail(i, std::string("popc cannot lower the 64-bit '") + i.getOpcodeName() +
                         "' conversion yet");
    }
  }
  if (llvm::isa<llvm::LoadInst>(i) || llvm::isa<llvm::StoreInst>(i)) {
    bool isLoad = llvm::isa<llvm::LoadInst>(i);
    if (!isWide(isLoad ? i.getType() : i.getOperand(0)->getType()))
      return fail(i, "popc cannot load or store this value yet");
    Address a = address(isLoad ? i.getOperand(0) : i.getOperand(1));
    Wide w = isLoad ? wideFor(&i) : wide(i.getOperand(0));
    // One ld64/st64 on a register pair when 8-byte aligned; else two word accesses (an i64 is
    // only 4-byte aligned in the 32-bit layout).
    llvm::Align align = isLoad ? llvm::cast<llvm::LoadInst>(i).getAlign()
                               : llvm::cast<llvm::StoreInst>(i).getAlign();
    if (align.value() >= 8) {
      if (isLoad) {
        Reg p = pairOf(w);
        emit(Opcode::Ld64, p, a.base, 0, 0, a.offset).slot = a.slot;
        if (p != w.lo) {
          emit(Opcode::Mov, w.lo, p);
          emit(Opcode::Mov, w.hi, p + 1);
        }
        truncateWide(w, wideBits(i.getType()));
      } else {
        emit(Opcode::St64, 0, a.base, pairOf(w), 0, a.offset).slot = a.slot;
      }
      return true;
    }
    if (isLoad) {
      emit(Opcode::Ld32, w.lo, a.base, 0, 0, a.offset).slot = a.slot;
      emit(Opcode::Ld32, w.hi, a.base, 0, 0, a.offset + 4).slot = a.slot;
      truncateWide(w, wideBits(i.getType()));
    } else {
      emit(Opcode::St32, 0, a.base, w.lo, 0, a.offset).slot = a.slot;
      emit(Opcode::St32, 0, a.base, w.hi, 0, a.offset + 4).slot = a.slot;
    }
    return true;
  }
  if (i.getOpcode() == llvm::Instruction::Select) {
    Reg cond = value(i.getOperand(0));
    Wide a = wide(i.getOperand(1)), b = wide(i.getOperand(2)), d = wideFor(&i);
    emit(Opcode::Sel, d.lo, a.lo, b.lo, cond);
    emit(Opcode::Sel, d.hi, a.hi, b.hi, cond);
    return true;
  }
  if (i.getOpcode() == llvm::Instruction::Freeze) {
    Wide a = wide(i.getOperand(0)), d = wideFor(&i);
    emit(Opcode::Mov, d.lo, a.lo);
    emit(Opcode::Mov, d.hi, a.hi);
    return true;
  }
  return fail(i, std::string("popc cannot lower the 64-bit '") + i.getOpcodeName() +
                     "' instruction yet");
}

bool FunctionLowering::lowerFunnelShift(const llvm::CallInst &i, bool left) {
  // fshl(a, b, n) = (a:b << n) high half, fshr(a, b, n) = (a:b >> n) low half, n mod width;
  // a rotate is a = b.
  const llvm::Value *n = i.getArgOperand(2);
  if (!isWide(i.getType())) {
    if (i.getType()->getIntegerBitWidth() != 32)
      return fail(i, "funnel shifts of narrow integers are not supported on the tile yet");
    Reg a = value(i.getArgOperand(0)), b = value(i.getArgOperand(1)), amount = tmp(), m = tmp(),
        x = tmp(), y = tmp(), z = tmp();
    emit(Opcode::Andi, amount, value(n), 0, 0, 31);
    emit(Opcode::Xori, m, amount, 0, 0, 31); // 31 - amount: the second shift by one more
    if (left) {
      emit(Opcode::Shl, x, a, amount);
      emit(Opcode::Shri, y, b, 0, 0, 1);
      emit(Opcode::Shr, z, y, m);
    } else {
      emit(Opcode::Shr, x, b, amount);
      emit(Opcode::Shli, y, a, 0, 0, 1);
      emit(Opcode::Shl, z, y, m);
    }
    emit(Opcode::Or, regFor(&i), x, z);
    return true;
  }
  Wide a = wide(i.getArgOperand(0)), b = wide(i.getArgOperand(1)), d = wideFor(&i);
  Reg amount = tmp(), other = tmp(), zero = tmp();
  emit(Opcode::Andi, amount, wide(n).lo, 0, 0, 63);
  emit(Opcode::Sub, other, poplar::isa::kRegZero, amount);
  emit(Opcode::Andi, other, other, 0, 0, 63); // 64 - amount, 0 when amount is 0
  emit(Opcode::Cmpeqi, zero, amount, 0, 0, 0);
  Wide x = wideShift(left ? llvm::Instruction::Shl : llvm::Instruction::LShr, left ? a : b, amount);
  Wide y = wideShift(left ? llvm::Instruction::LShr : llvm::Instruction::Shl, left ? b : a, other);
  Wide keep = left ? a : b;
  Reg lo = tmp(), hi = tmp();
  emit(Opcode::Or, lo, x.lo, y.lo);
  emit(Opcode::Or, hi, x.hi, y.hi);
  emit(Opcode::Sel, d.lo, keep.lo, lo, zero);
  emit(Opcode::Sel, d.hi, keep.hi, hi, zero);
  return true;
}

bool FunctionLowering::lowerWideIntrinsic(const llvm::CallInst &i, llvm::Intrinsic::ID id) {
  Wide a = wide(i.getArgOperand(0)), d = wideFor(&i);
  unsigned bits = wideBits(i.getType());
  if (bits < 64 && (id == llvm::Intrinsic::fshl || id == llvm::Intrinsic::fshr))
    return fail(i,
                "funnel shifts of i" + std::to_string(bits) + " are not supported on the tile yet");
  switch (id) {
  case llvm::Intrinsic::smin:
  case llvm::Intrinsic::smax:
  case llvm::Intrinsic::umin:
  case llvm::Intrinsic::umax: {
    Wide b = wide(i.getArgOperand(1));
    bool isSigned = id == llvm::Intrinsic::smin || id == llvm::Intrinsic::smax;
    bool isMin = id == llvm::Intrinsic::smin || id == llvm::Intrinsic::umin;
    Reg less = isSigned ? wideLess(signExtendWide(a, bits), signExtendWide(b, bits), true)
                        : wideLess(a, b, false); // a < b: min is a, max is b
    emit(Opcode::Sel, d.lo, isMin ? a.lo : b.lo, isMin ? b.lo : a.lo, less);
    emit(Opcode::Sel, d.hi, isMin ? a.hi : b.hi, isMin ? b.hi : a.hi, less);
    return true;
  }
  case llvm::Intrinsic::fshl:
  case llvm::Intrinsic::fshr:
    return lowerFunnelShift(i, id == llvm::Intrinsic::fshl);
  case llvm::Intrinsic::ctlz:
  case llvm::Intrinsic::cttz: {
    // The count in the word that decides it, plus 32 when that word is zero.
    bool leading = id == llvm::Intrinsic::ctlz;
    Reg first = leading ? a.hi : a.lo, second = leading ? a.lo : a.hi;
    Reg c1 = tmp(), c2 = tmp(), c2plus = tmp(), empty = tmp();
    Opcode count = leading ? Opcode::Clz : Opcode::Ctz;
    emit(count, c1, first);
    emit(count, c2, second);
    emit(Opcode::Addi, c2plus, c2, 0, 0, 32);
    emit(Opcode::Cmpeqi, empty, first, 0, 0, 0);
    emit(Opcode::Sel, d.lo, c2plus, c1, empty);
    emit(Opcode::Mov, d.hi, poplar::isa::kRegZero);
    if (bits < 64 && leading) // an iN lives zero-extended: 64 - N of the zeros are not its
      emit(Opcode::Addi, d.lo, d.lo, 0, 0, -static_cast<std::int32_t>(64 - bits));
    if (bits < 64 && !leading) { // a zero iN has N trailing zeros, not 64
      Reg n = constant(bits);
      emit(Opcode::Minu, d.lo, d.lo, n);
    }
    return true;
  }
  case llvm::Intrinsic::ctpop: {
    Reg p1 = tmp(), p2 = tmp();
    emit(Opcode::Popc, p1, a.lo);
    emit(Opcode::Popc, p2, a.hi);
    emit(Opcode::Add, d.lo, p1, p2);
    emit(Opcode::Mov, d.hi, poplar::isa::kRegZero);
    return true;
  }
  case llvm::Intrinsic::abs: {
    a = signExtendWide(a, bits);
    Wide n = wideSub({poplar::isa::kRegZero, poplar::isa::kRegZero}, a);
    Reg negative = tmp();
    emit(Opcode::Cmplti, negative, a.hi, 0, 0, 0);
    emit(Opcode::Sel, d.lo, n.lo, a.lo, negative);
    emit(Opcode::Sel, d.hi, n.hi, a.hi, negative);
    truncateWide(d, bits);
    return true;
  }
  default:
    return fail(i, "'" + i.getCalledFunction()->getName().str() +
                       "' on 64-bit integers is not supported on the tile yet");
  }
}

bool FunctionLowering::lowerVectorOperation(const llvm::CallInst &i, Opcode op) {
  // SelectVectors' calls: each argument is an operand in order (ra, rb, rc), a pair where the
  // instruction reads one; the result is rd, a pair where it writes one.
  const poplar::isa::OpcodeInfo &info = poplar::isa::info(op);
  const std::uint8_t pairFlags[] = {poplar::isa::PA, poplar::isa::PB, poplar::isa::PC};
  Reg operands[3] = {};
  for (unsigned k = 0; k < i.arg_size(); ++k) {
    const llvm::Value *arg = i.getArgOperand(k);
    operands[k] = info.flags & pairFlags[k] ? pairOf(wide(arg)) : value(arg);
  }
  if (!(info.flags & poplar::isa::PD)) {
    emit(op, regFor(&i), operands[0], operands[1], operands[2]);
    return true;
  }
  Wide d = wideFor(&i);
  Reg p = out_.newPair(); // d may be a pair already: then the copies coalesce
  emit(op, p, operands[0], operands[1], operands[2]);
  emit(Opcode::Mov, d.lo, p);
  emit(Opcode::Mov, d.hi, p + 1);
  return true;
}

bool FunctionLowering::lowerLane(const llvm::Instruction &i) {
  // Lane k of a vector of b-bit elements is bits (k*b) % 32 up of word (k*b) / 32. A half lane
  // holds its 16-bit pattern (a scalar half is its f32 value); narrow integers zero-extended.
  bool insert = llvm::isa<llvm::InsertElementInst>(i);
  const llvm::Value *vector = i.getOperand(0);
  const auto *index = llvm::dyn_cast<llvm::ConstantInt>(i.getOperand(insert ? 2 : 1));
  const auto *type = llvm::cast<llvm::FixedVectorType>(vector->getType());
  unsigned laneBits = type->getScalarSizeInBits(), bits = laneBits * type->getNumElements();
  if (!index || (bits != 32 && bits != 64) || index->getZExtValue() >= type->getNumElements())
    return fail(i, "popc cannot access this vector element yet (a 32- or 64-bit vector and a "
                   "constant index in range)");
  unsigned at = unsigned(index->getZExtValue()) * laneBits, word = at / 32, shift = at % 32;
  bool half = type->getElementType()->isHalfTy();
  std::vector<Reg> words;
  if (bits == 64) {
    Wide w = wide(vector);
    words = {w.lo, w.hi};
  } else {
    words = {value(vector)};
  }
  if (!insert) {
    Reg lane = words[word];
    if (shift) {
      lane = tmp();
      emit(Opcode::Shri, lane, words[word], 0, 0, static_cast<std::int32_t>(shift));
    }
    Reg d = regFor(&i);
    if (half)
      emit(Opcode::Htof, d, lane); // reads bits 15:0
    else
      truncateInto(d, lane, laneBits);
    return true;
  }
  Reg lane = value(i.getOperand(1));
  if (laneBits < 32) {
    if (half) {
      Reg h = tmp();
      emit(Opcode::Ftoh, h, lane); // zero-extended 16-bit pattern
      lane = h;
    }
    std::uint32_t mask = static_cast<std::uint32_t>(((1ull << laneBits) - 1) << shift);
    Reg shifted = lane, kept = tmp(), merged = tmp();
    if (shift) {
      shifted = tmp();
      emit(Opcode::Shli, shifted, lane, 0, 0, static_cast<std::int32_t>(shift));
    }
    emit(Opcode::Andi, kept, words[word], 0, 0, static_cast<std::int32_t>(~mask));
    emit(Opcode::Or, merged, kept, shifted);
    lane = merged;
  }
  words[word] = lane;
  if (bits == 64) {
    Wide d = wideFor(&i);
    emit(Opcode::Mov, d.lo, words[0]);
    emit(Opcode::Mov, d.hi, words[1]);
  } else {
    emit(Opcode::Mov, regFor(&i), words[0]);
  }
  return true;
}

bool FunctionLowering::lowerPrintf(const llvm::CallInst &i) {
  // The arguments go to 4-byte slots of a frame block: integers and pointers as they are, a
  // float promoted to double as its f32 bits (FPExt and double constants lower to those).
  // An i64 takes two slots, low word first.
  std::vector<Reg> words;
  for (unsigned k = 1; k < i.arg_size(); ++k) {
    const llvm::Value *arg = i.getArgOperand(k);
    if (isWide(arg->getType())) {
      Wide w = wide(arg);
      words.insert(words.end(), {w.lo, w.hi});
    } else {
      words.push_back(value(arg));
    }
  }
  int slot = out_.newSlot(std::max<std::uint32_t>(4 * words.size(), 4), 4);
  for (std::size_t k = 0; k < words.size(); ++k)
    emit(Opcode::St32, 0, poplar::isa::kRegSp, words[k], 0, static_cast<std::int32_t>(4 * k)).slot =
        slot;
  Reg args = tmp();
  emit(Opcode::Addi, args, poplar::isa::kRegSp).slot = slot;
  emit(Opcode::Print, regFor(&i), value(i.getArgOperand(0)), args);
  return true;
}

bool FunctionLowering::lowerBranch(const llvm::Instruction &i) {
  if (const auto *r = llvm::dyn_cast<llvm::ReturnInst>(&i)) {
    bool hasValue = r->getReturnValue() != nullptr;
    bool wideValue = hasValue && isWide(r->getReturnValue()->getType());
    if (wideValue) {
      Wide w = wide(r->getReturnValue());
      emit(Opcode::Mov, 1, w.lo);
      emit(Opcode::Mov, 2, w.hi);
    } else if (hasValue) {
      emit(Opcode::Mov, 1, value(r->getReturnValue()));
    }
    mir::Inst &ret = emit(Opcode::Ret);
    ret.callResult = hasValue;
    ret.wideResult = wideValue;
    return true;
  }
  if (llvm::isa<llvm::UnreachableInst>(i)) {
    emit(Opcode::Trap, 0, 0, 0, 0, 0);
    return true;
  }
  const auto *br = llvm::dyn_cast<llvm::BranchInst>(&i);
  if (!br)
    return fail(i, std::string("popc cannot lower '") + i.getOpcodeName() + "' yet");
  const llvm::BasicBlock *from = i.getParent();
  if (br->isUnconditional()) {
    const llvm::BasicBlock *to = br->getSuccessor(0);
    if (!to->getSinglePredecessor())
      phiCopies(*to, *from);
    emit(Opcode::Br).target = blocks_.at(to);
    return true;
  }
  // No critical edges: each successor of a conditional branch has this block as only
  // predecessor, so its phi copies sit at its top.
  if (auto it = countedBranches_.find(br); it != countedBranches_.end()) {
    emit(Opcode::Brnzdec, 0, regFor(it->second)).target = blocks_.at(br->getSuccessor(0));
    emit(Opcode::Br).target = blocks_.at(br->getSuccessor(1));
    return true;
  }
  Reg cond = value(br->getCondition());
  emit(Opcode::Brnz, 0, cond).target = blocks_.at(br->getSuccessor(0));
  emit(Opcode::Br).target = blocks_.at(br->getSuccessor(1));
  return true;
}

} // namespace

bool lowerFunctions(const llvm::Module &m, const GlobalOffsets &globals, mir::Module &out,
                    SourceDiagnostics &diags) {
  std::map<const llvm::Function *, mir::Function *> functions;
  std::vector<const llvm::Function *> order;
  for (const llvm::Function &f : m) {
    if (f.isDeclaration())
      continue;
    out.functions.push_back(std::make_unique<mir::Function>());
    out.functions.back()->name = f.getName().str();
    functions[&f] = out.functions.back().get();
    order.push_back(&f);
  }
  std::map<std::string, std::uint32_t> files;
  for (std::uint32_t k = 0; k < out.files.size(); ++k)
    files[out.files[k]] = k;
  bool ok = true;
  // In module order, not the map's pointer order: the file table fills as functions are lowered,
  // and the same source must give the same bytes whatever the heap layout (the codelet cache
  // and reproducible builds compare them).
  for (const llvm::Function *f : order) {
    FunctionLowering lowering(*f, *functions[f], globals, functions, files, out, diags);
    ok &= lowering.run();
  }
  return ok;
}

} // namespace popc
