// ISA -> LLVM IR: the blocks reachable from an entry, each charged on entry exactly as the fast
// interpreter loops charge it, run through the opcode builders; rpt loops; stops with their
// refunds; hand-overs to the interpreter; the exit that writes registers and frame back.
#include "Translator.hpp"

#include "CheckVersioning.hpp"
#include "interp/Ops.hpp"
#include "isa/CoIssue.hpp"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include <algorithm>
#include <deque>
#include <stdexcept>

namespace poplar::native {

using isa::Opcode;
using namespace llvm;

namespace {

bool isControl(std::uint16_t plainOp) {
  return plainOp < isa::kNumOpcodes && (isa::info(Opcode(plainOp)).flags & isa::CTL);
}
bool is(const DecodedInsn &d, Opcode op) { return d.plainOp == std::uint16_t(op); }

} // namespace

// The rpt body being translated. A stop inside it refunds the rest of this pass and the passes
// after it: the run then shows exactly the instructions and cycles issued one at a time.
struct Translator::Rpt {
  std::uint32_t rptIndex = 0, len = 0;
  std::uint64_t bodyCycles = 0;
  std::vector<std::uint64_t> cyclesThrough; // body cycles up to and including position p
  Value *count = nullptr;                   // i64: passes
  AllocaInst *pass = nullptr;               // i64: the current pass, from 0
};

Translator::Translator(Module &module, const interp::NativeRequest &request,
                       const std::string &name)
    : b(module.getContext()), module_(module), ctx_(module.getContext()), request_(request),
      pb_(module.getContext()) {
  auto *type = FunctionType::get(Type::getVoidTy(ctx_), {Type::getInt8PtrTy(ctx_)}, false);
  fn_ = Function::Create(type, Function::ExternalLinkage, name, module_);
  fn_->addParamAttr(0, Attribute::NoAlias);
  fn_->addFnAttr(Attribute::NoUnwind);
  // Vectors of 256 bits on an AVX-512 host too, as GCC and Clang choose for -march=native on
  // most: at 512 bits a loop of fewer than 16 floats (a small vertex's 8) runs scalar. Measured
  // (bench/step_cost, 1472 tiles, native tier, AMD EPYC with AVX-512): 17.5-19.9 ns a vertex
  // against 21.5-22.6 ns; bench/codelets' long loops no slower.
  fn_->addFnAttr("prefer-vector-width", "256");
  frame_ = fn_->getArg(0);
  prologue_ = newBlock("prologue");
  exit_ = newBlock("exit");
  pb_.SetInsertPoint(prologue_);
  left_ = slot(pb_.getInt64Ty(), "left");
  cycles_ = slot(pb_.getInt64Ty(), "cycles");
  using F = interp::NativeFrame;
  pb_.CreateStore(pb_.CreateLoad(pb_.getInt64Ty(), frameField(offsetof(F, left), pb_.getInt64Ty())),
                  left_);
  pb_.CreateStore(
      pb_.CreateLoad(pb_.getInt64Ty(), frameField(offsetof(F, cycles), pb_.getInt64Ty())), cycles_);
}

BasicBlock *Translator::newBlock(const char *name) { return BasicBlock::Create(ctx_, name, fn_); }

AllocaInst *Translator::slot(Type *type, const char *name) {
  return pb_.CreateAlloca(type, nullptr, name);
}

Value *Translator::frameField(std::size_t offset, Type *type) {
  Value *p = pb_.CreateConstInBoundsGEP1_64(pb_.getInt8Ty(), frame_, offset);
  return pb_.CreateBitCast(p, type->getPointerTo());
}

Value *Translator::framePrologueLoad(std::size_t offset, Type *type) {
  Value *&v = prologueLoads_[offset];
  if (!v)
    v = pb_.CreateLoad(type, frameField(offset, type));
  return v;
}

Value *Translator::windowField(std::size_t offset, Type *type) {
  Value *&v = windowLoads_[offset];
  if (!v) {
    Value *window = framePrologueLoad(offsetof(interp::NativeFrame, window), pb_.getInt8PtrTy());
    Value *p = pb_.CreateConstInBoundsGEP1_64(pb_.getInt8Ty(), window, offset);
    v = pb_.CreateLoad(type, pb_.CreateBitCast(p, type->getPointerTo()));
  }
  return v;
}

// ---- registers and values ----

// A register lives in stack slots that SROA turns into SSA values: its bits and its value as
// a host float. Both are loaded from the state on entry, so that a path that does not write it
// leaves it as it was, and every write sets both. In a fresh run (NativeFrame::fresh) a
// register the calling convention does not set starts at zero instead, as the launch did not
// clear the state.
AllocaInst *Translator::regSlot(unsigned r) {
  if (!regs_[r]) {
    regs_[r] = slot(pb_.getInt32Ty(), "r");
    floats_[r] = slot(pb_.getFloatTy(), "f");
    Value *saved = statePtr(offsetof(interp::WorkerState, regs) + 4 * r, pb_.getInt32Ty());
    Value *bits = pb_.CreateLoad(pb_.getInt32Ty(), saved);
    const bool convention = r == isa::kRegArg0 || r == isa::kRegArg1 || r == isa::kRegGp ||
                            r == isa::kRegSp || r == isa::kRegLr;
    if (!convention) {
      if (!fresh_)
        fresh_ = pb_.CreateICmpNE(
            framePrologueLoad(offsetof(interp::NativeFrame, fresh), pb_.getInt32Ty()),
            pb_.getInt32(0));
      bits = pb_.CreateSelect(fresh_, pb_.getInt32(0), bits);
    }
    pb_.CreateStore(bits, regs_[r]);
    pb_.CreateStore(pb_.CreateBitCast(bits, pb_.getFloatTy()), floats_[r]);
  }
  return regs_[r];
}

Value *Translator::reg(unsigned r) {
  if (r == isa::kRegZero)
    return i32(0);
  if (deferring_) // the aux half reading what it wrote itself
    for (const Deferred &w : deferred_)
      if (w.reg == r)
        return w.bits;
  return b.CreateLoad(b.getInt32Ty(), regSlot(r));
}

Value *Translator::freg(unsigned r) {
  if (r == isa::kRegZero)
    return f(i32(0));
  if (deferring_)
    for (const Deferred &w : deferred_)
      if (w.reg == r)
        return w.value;
  regSlot(r);
  return b.CreateLoad(b.getFloatTy(), floats_[r]);
}

void Translator::write(unsigned r, Value *bits, Value *value) {
  if (r == isa::kRegZero || r >= isa::kNumRegs)
    return;
  written_[r] = true;
  if (deferring_) {
    deferred_.erase(std::remove_if(deferred_.begin(), deferred_.end(),
                                   [r](const Deferred &w) { return w.reg == r; }),
                    deferred_.end());
    deferred_.push_back({r, bits, value});
    return;
  }
  b.CreateStore(bits, regSlot(r));
  b.CreateStore(value, floats_[r]);
}

void Translator::set(unsigned r, Value *value) { write(r, value, f(value)); }

void Translator::setFloat(unsigned r, Value *x) { write(r, un(x), x); }

Value *Translator::pair(unsigned r) {
  Value *lo = b.CreateZExt(reg(r), b.getInt64Ty());
  Value *hi = b.CreateZExt(reg(r + 1), b.getInt64Ty());
  return b.CreateOr(lo, b.CreateShl(hi, 32));
}

void Translator::setPair(unsigned r, Value *value) {
  Value *lo = b.CreateTrunc(value, b.getInt32Ty());
  Value *hi = b.CreateTrunc(b.CreateLShr(value, 32), b.getInt32Ty());
  set(r, lo);
  set(r + 1, hi);
}

Value *Translator::f(Value *bits) { return b.CreateBitCast(bits, b.getFloatTy()); }
Value *Translator::bits(Value *x) { return b.CreateBitCast(x, b.getInt32Ty()); }
Value *Translator::un(Value *x) {
  return b.CreateSelect(b.CreateFCmpUNO(x, x), i32(isa::kCanonicalNaN), bits(x));
}
Value *Translator::flag(Value *cond) { return b.CreateZExt(cond, b.getInt32Ty()); }

// ---- memory ----

Value *Translator::access(Value *addr, unsigned k, const DecodedInsn &d) {
  using W = interp::ops::Window;
  Value *lo = windowField(offsetof(W, lo) + 4 * k, pb_.getInt32Ty());
  Value *span = windowField(offsetof(W, span) + 8 * k, pb_.getInt64Ty());
  Value *ok = b.CreateCall(windowCheck(module_), {addr, lo, span, i32(k)});
  BasicBlock *fault = newBlock("fault"), *cont = newBlock("access");
  b.CreateCondBr(ok, cont, fault, MDBuilder(ctx_).createBranchWeights(1u << 20, 1));
  b.SetInsertPoint(fault);
  const std::uint32_t align = interp::ops::accessAlign(d.plainOp);
  Value *misaligned = b.CreateICmpNE(b.CreateAnd(addr, i32(align - 1)), i32(0));
  stop(b.CreateSelect(misaligned, i32(std::uint32_t(Trap::Misaligned)),
                      i32(std::uint32_t(Trap::OutOfBounds))),
       d, nullptr, addr);
  b.SetInsertPoint(cont);
  return b.CreateGEP(b.getInt8Ty(), hostBase(), b.CreateZExt(addr, b.getInt64Ty()));
}

// The host address of tile address 0 (outside the buffer: only ever offset back into it).
Value *Translator::hostBase() {
  if (!hostBase_) {
    using W = interp::ops::Window;
    Value *data = windowField(offsetof(W, data), pb_.getInt8PtrTy());
    Value *base = windowField(offsetof(W, base), pb_.getInt32Ty());
    hostBase_ =
        pb_.CreateGEP(pb_.getInt8Ty(), data, pb_.CreateNeg(pb_.CreateZExt(base, pb_.getInt64Ty())));
  }
  return hostBase_;
}

Value *Translator::load(Value *host, Type *type) {
  return b.CreateAlignedLoad(type, b.CreateBitCast(host, type->getPointerTo()), Align(1));
}

void Translator::store(Value *host, Value *value) {
  b.CreateAlignedStore(value, b.CreateBitCast(host, value->getType()->getPointerTo()), Align(1));
}

// ---- worker state and helpers ----

Value *Translator::statePtr(std::size_t offset, Type *type) {
  Value *p = pb_.CreateConstInBoundsGEP1_64(pb_.getInt8Ty(), state(), offset);
  return pb_.CreateBitCast(p, type->getPointerTo());
}

Value *Translator::memoryPtr() {
  return framePrologueLoad(offsetof(interp::NativeFrame, memory), pb_.getInt8PtrTy());
}

Value *Translator::stackLimit(bool high) {
  using W = interp::WorkerState;
  Value *&v = stateLoads_[high ? offsetof(W, stackHi) : offsetof(W, stackLo)];
  if (!v)
    v = pb_.CreateLoad(
        pb_.getInt32Ty(),
        statePtr(high ? offsetof(W, stackHi) : offsetof(W, stackLo), pb_.getInt32Ty()));
  return v;
}

Value *Translator::workerId() {
  using W = interp::WorkerState;
  Value *&v = stateLoads_[offsetof(W, workerId)];
  if (!v)
    v = pb_.CreateLoad(pb_.getInt32Ty(), statePtr(offsetof(W, workerId), pb_.getInt32Ty()));
  return v;
}

Value *Translator::state() {
  return framePrologueLoad(offsetof(interp::NativeFrame, state), pb_.getInt8PtrTy());
}

Value *Translator::callAddress(std::uintptr_t fn, Type *result, ArrayRef<Value *> args) {
  std::vector<Type *> params;
  for (Value *a : args)
    params.push_back(a->getType());
  auto *type = FunctionType::get(result, params, false);
  Constant *callee = ConstantExpr::getIntToPtr(b.getInt64(fn), type->getPointerTo());
  return b.CreateCall(type, callee, args);
}

Value *Translator::scratch(unsigned i) {
  if (!scratch_.at(i))
    scratch_[i] = slot(pb_.getInt32Ty(), "scratch");
  return scratch_[i];
}

// ---- stops and hand-overs ----

// What the run did not issue of the block it stops in: the rest of the block after `index`,
// or in a rpt body the rest of this pass and the passes after it.
std::pair<Value *, Value *> Translator::refund(std::uint32_t index) {
  if (rpt_ && index > rpt_->rptIndex && index <= rpt_->rptIndex + rpt_->len) {
    const std::uint32_t p = index - rpt_->rptIndex - 1;
    Value *after =
        b.CreateSub(b.CreateSub(rpt_->count, i64(1)), b.CreateLoad(b.getInt64Ty(), rpt_->pass));
    return {b.CreateAdd(i64(rpt_->len - 1 - p), b.CreateMul(after, i64(rpt_->len))),
            b.CreateAdd(i64(rpt_->bodyCycles - rpt_->cyclesThrough[p]),
                        b.CreateMul(after, i64(rpt_->bodyCycles)))};
  }
  const DecodedInsn &d = request_.insns[index];
  return {i64(d.rest - 1), i64(d.restCycles - d.cycles)};
}

void Translator::leave(const Leave &how) {
  leaves_.push_back(how);
  leaves_.back().from = b.GetInsertBlock();
  b.CreateBr(exit_);
}

void Translator::stop(Value *trap, const DecodedInsn &d, Value *result, Value *address) {
  const auto [instructions, cycles] = refund(indexOf(d));
  leave({nullptr, trap, i32(indexOf(d)), result ? result : i32(0), address ? address : i32(0),
         instructions, cycles});
}

void Translator::stop(Trap trap, const DecodedInsn &d, Value *result, Value *address) {
  stop(i32(std::uint32_t(trap)), d, result, address);
}

void Translator::trapIf(Value *cond, Trap trap, const DecodedInsn &d, Value *address) {
  BasicBlock *stopped = newBlock("trap"), *cont = newBlock("cont");
  b.CreateCondBr(cond, stopped, cont, MDBuilder(ctx_).createBranchWeights(1, 1u << 20));
  b.SetInsertPoint(stopped);
  stop(trap, d, nullptr, address);
  b.SetInsertPoint(cont);
}

void Translator::trapUnlessNone(Value *trap, const DecodedInsn &d, Value *address) {
  BasicBlock *stopped = newBlock("trap"), *cont = newBlock("cont");
  b.CreateCondBr(b.CreateICmpNE(trap, i32(std::uint32_t(Trap::None))), stopped, cont,
                 MDBuilder(ctx_).createBranchWeights(1, 1u << 20));
  b.SetInsertPoint(stopped);
  stop(trap, d, nullptr, address);
  b.SetInsertPoint(cont);
}

void Translator::addCycles(Value *cycles64) {
  b.CreateStore(b.CreateAdd(b.CreateLoad(b.getInt64Ty(), cycles_), cycles64), cycles_);
}

// Hands the run to the interpreter at `index`; `refundBlock` when the block at index was paid
// for (the interpreter pays for it again, from index on).
void Translator::handOver(std::uint32_t index, bool refundBlock) {
  const DecodedInsn &d = request_.insns[index];
  leave({nullptr, i32(interp::kNativeHandOver), i32(index), i32(0), i32(0),
         i64(refundBlock ? d.rest : 0), i64(refundBlock ? d.restCycles : 0)});
}

void Translator::handOver(Value *index) {
  leave({nullptr, i32(interp::kNativeHandOver), index, i32(0), i32(0), i64(0), i64(0)});
}

// ---- control flow ----

BasicBlock *Translator::enter(std::uint32_t index) {
  auto it = leaders_.find(index);
  if (it == leaders_.end())
    throw std::logic_error("native: a control transfer to an undiscovered pc " +
                           std::to_string(index));
  return it->second.charge;
}

void Translator::returnTo(Value *to, const DecodedInsn &d) {
  BasicBlock *toHost = newBlock("ret.exit"), *inCode = newBlock("ret.code"),
             *bad = newBlock("ret.bad"), *dispatch = newBlock("ret.dispatch"),
             *unknown = newBlock("ret.unknown");
  b.CreateCondBr(b.CreateICmpEQ(to, i32(isa::kExitLr)), toHost, inCode);
  b.SetInsertPoint(toHost);
  stop(Trap::None, d, reg(isa::kRegArg0));
  b.SetInsertPoint(inCode);
  b.CreateCondBr(b.CreateICmpUGE(to, i32(request_.numWords)), bad, dispatch);
  b.SetInsertPoint(bad);
  stop(Trap::BadJump, d);
  b.SetInsertPoint(dispatch);
  SwitchInst *sw = b.CreateSwitch(to, unknown, unsigned(returnPoints_.size()));
  for (std::uint32_t point : returnPoints_)
    sw->addCase(b.getInt32(point), enter(point));
  // lr was changed to a pc no call returns to: the interpreter enters the block there.
  b.SetInsertPoint(unknown);
  handOver(to);
}

void Translator::repeat(const DecodedInsn &d) {
  const std::uint32_t index = indexOf(d);
  const DecodedInsn &loop = request_.insns[d.imm];
  Rpt rpt;
  rpt.rptIndex = index;
  rpt.len = loop.rest;
  rpt.bodyCycles = loop.restCycles;
  std::uint64_t sum = 0;
  for (std::uint32_t i = 1; i <= rpt.len; ++i)
    rpt.cyclesThrough.push_back(sum += request_.insns[index + i].cycles);
  rpt.count = b.CreateZExt(reg(d.ra), b.getInt64Ty());
  rpt.pass = slot(pb_.getInt64Ty(), "pass");

  BasicBlock *check = newBlock("rpt.check"), *tooLong = newBlock("rpt.budget"),
             *start = newBlock("rpt.start"), *body = newBlock("rpt.body");
  b.CreateCondBr(b.CreateICmpEQ(rpt.count, i64(0)), enter(loop.pc), check);
  // The whole rpt is paid for at once, as the fast loops do, or the interpreter runs it.
  b.SetInsertPoint(check);
  Value *total = b.CreateMul(rpt.count, i64(rpt.len));
  Value *left = b.CreateLoad(b.getInt64Ty(), left_);
  b.CreateCondBr(b.CreateCall(budgetCheck(module_), {left, total}), start, tooLong);
  b.SetInsertPoint(tooLong);
  handOver(index, true);
  b.SetInsertPoint(start);
  b.CreateStore(b.CreateSub(left, total), left_);
  addCycles(b.CreateMul(rpt.count, i64(rpt.bodyCycles)));
  b.CreateStore(i64(0), rpt.pass);
  if (const auto stream = matchStreamLoop(&request_.insns[index + 1], rpt.len)) {
    BasicBlock *lanes = newBlock("stream");
    b.CreateCondBr(streamable(*stream, rpt.count), lanes, body);
    b.SetInsertPoint(lanes);
    streamLoop(*stream, rpt.count, enter(loop.pc));
  } else {
    b.CreateBr(body);
  }
  b.SetInsertPoint(body);
  rpt_ = &rpt;
  translateRun(index + 1, index + rpt.len, false);
  rpt_ = nullptr;
  Value *next = b.CreateAdd(b.CreateLoad(b.getInt64Ty(), rpt.pass), i64(1));
  b.CreateStore(next, rpt.pass);
  b.CreateCondBr(b.CreateICmpULT(next, rpt.count), body, enter(loop.pc));
}

// ---- blocks ----

bool Translator::buildable(std::uint32_t index) const {
  const std::uint16_t op = request_.insns[index].plainOp;
  if (op >= isa::kNumOpcodes || (request_.interpreted[op / 64] >> (op % 64) & 1) || !builderFor(op))
    return false;
  if (op == std::uint16_t(Opcode::Rpt)) {
    const std::uint32_t len = request_.insns[request_.insns[index].imm].rest;
    for (std::uint32_t i = index + 1; i <= index + len; ++i)
      if (!buildable(i))
        return false;
  }
  return true;
}

// Every pc a control transfer can reach from the entry: branch and call targets, fall-throughs
// after conditional branches, return points after calls, the pc after a rpt.
void Translator::discover() {
  std::deque<std::uint32_t> work;
  auto reach = [&](std::uint32_t index) {
    if (leaders_.emplace(index, Leader{}).second)
      work.push_back(index);
  };
  reach(request_.entryPc);
  while (!work.empty()) {
    const std::uint32_t start = work.front();
    work.pop_front();
    for (std::uint32_t i = start;; ++i) {
      const DecodedInsn &d = request_.insns[i];
      // (A leader reached by falling through is walked from its own start.)
      if (d.plainOp == interp::kOpBad || !buildable(i) || (i != start && leaders_.count(i)))
        break;
      if (!isControl(d.plainOp))
        continue;
      if (is(d, Opcode::Br))
        reach(d.imm);
      else if (is(d, Opcode::Brz) || is(d, Opcode::Brnz) || is(d, Opcode::Brnzdec)) {
        reach(d.imm);
        reach(i + 1);
      } else if (is(d, Opcode::Call)) {
        reach(d.imm);
        reach(i + 1);
        returnPoints_.insert(i + 1);
      } else if (is(d, Opcode::Rpt))
        reach(request_.insns[d.imm].pc);
      break;
    }
  }
}

void Translator::emitCharge(std::uint32_t index) {
  const DecodedInsn &d = request_.insns[index];
  const Leader &l = leaders_.at(index);
  b.SetInsertPoint(l.charge);
  BasicBlock *tooLong = newBlock("budget");
  BasicBlock *paid = newBlock("paid");
  Value *left = b.CreateLoad(b.getInt64Ty(), left_);
  b.CreateCondBr(b.CreateCall(budgetCheck(module_), {left, i64(d.rest)}), paid, tooLong,
                 MDBuilder(ctx_).createBranchWeights(1u << 20, 1));
  b.SetInsertPoint(tooLong);
  handOver(index, false);
  b.SetInsertPoint(paid);
  b.CreateStore(b.CreateSub(left, i64(d.rest)), left_);
  addCycles(i64(d.restCycles));
  b.CreateBr(l.body);
}

void Translator::translateRun(std::uint32_t first, std::uint32_t last, bool stopAtLeaders) {
  for (std::uint32_t i = first; i <= last; ++i) {
    if (stopAtLeaders && i != first && leaders_.count(i)) {
      b.CreateBr(leaders_.at(i).body); // falls through: the block is already paid for
      return;
    }
    const DecodedInsn &d = request_.insns[i];
    if (d.plainOp == interp::kOpBad) {
      stop(Trap::BadInstruction, d);
      return;
    }
    if (!buildable(i)) {
      ++stats_.handedOver;
      handOver(i, true);
      return;
    }
    if (i < last && emitsAuxFirst(i) && !(stopAtLeaders && leaders_.count(i + 1))) {
      // The aux half first, its writes held back, then the main half: the same as issuing
      // them in order (the aux half reads nothing the main half writes, which reads the
      // registers before the aux half's writes land). A loop's arithmetic then precedes the
      // store of the previous trip's result, the shape LLVM vectorises as a recurrence.
      const DecodedInsn &second = request_.insns[i + 1];
      deferring_ = true;
      builderFor(second.plainOp)(*this, second);
      deferring_ = false;
      builderFor(d.plainOp)(*this, d);
      std::vector<Deferred> held;
      held.swap(deferred_);
      for (const Deferred &w : held)
        write(w.reg, w.bits, w.value);
      stats_.translated += 2;
      ++i;
      continue;
    }
    builderFor(d.plainOp)(*this, d);
    ++stats_.translated;
    if (isControl(d.plainOp))
      return;
  }
}

// Whether the instruction at index is the main half of a bundle whose aux half only computes
// registers (floating point and vectors: no memory, no AMP state, no stop), so that it can be
// emitted first. The decoder gives a bundle's second half no cycles.
bool Translator::emitsAuxFirst(std::uint32_t index) const {
  const DecodedInsn &first = request_.insns[index], &second = request_.insns[index + 1];
  if (second.cycles != 0 || first.plainOp >= isa::kNumOpcodes ||
      second.plainOp >= isa::kNumOpcodes || isControl(first.plainOp) || !buildable(index) ||
      !buildable(index + 1))
    return false;
  const auto op = Opcode(second.plainOp);
  return isa::pipe(Opcode(first.plainOp)) == isa::Pipe::Main && isa::pipe(op) == isa::Pipe::Aux &&
         isa::group(op) != isa::OpGroup::Amp;
}

void Translator::emitBody(std::uint32_t index) {
  b.SetInsertPoint(leaders_.at(index).body);
  translateRun(index, ~0u, true);
}

void Translator::finish() {
  // Every address the exit writes is computed in the prologue, before its branch.
  using F = interp::NativeFrame;
  Value *leftField = frameField(offsetof(F, left), pb_.getInt64Ty());
  Value *cyclesField = frameField(offsetof(F, cycles), pb_.getInt64Ty());
  std::vector<std::pair<AllocaInst *, Value *>> regWrites;
  for (unsigned r = 1; r < isa::kNumRegs; ++r)
    if (written_[r]) {
      stats_.written |= std::uint64_t(1) << r;
      regWrites.emplace_back(
          regs_[r], statePtr(offsetof(interp::WorkerState, regs) + 4 * r, pb_.getInt32Ty()));
    }
  const std::pair<Value * Leave::*, std::size_t> words[] = {
      {&Leave::status, offsetof(F, status)},
      {&Leave::index, offsetof(F, index)},
      {&Leave::result, offsetof(F, result)},
      {&Leave::address, offsetof(F, address)}};
  std::vector<std::pair<Value * Leave::*, Value *>> wordFields;
  for (const auto &[member, offset] : words)
    wordFields.emplace_back(member, frameField(offset, pb_.getInt32Ty()));
  pb_.CreateBr(enter(request_.entryPc));

  b.SetInsertPoint(exit_);
  auto phi = [&](Value *Leave::*member) {
    PHINode *p = b.CreatePHI((leaves_.front().*member)->getType(), unsigned(leaves_.size()));
    for (const Leave &l : leaves_)
      p->addIncoming(l.*member, l.from);
    return p;
  };
  Value *refundInstructions = phi(&Leave::refundInstructions);
  Value *refundCycles = phi(&Leave::refundCycles);
  std::vector<std::pair<Value *, Value *>> wordWrites;
  for (const auto &[member, field] : wordFields)
    wordWrites.emplace_back(phi(member), field);
  for (const auto &[value, field] : wordWrites)
    b.CreateStore(value, field);
  b.CreateStore(b.CreateAdd(b.CreateLoad(b.getInt64Ty(), left_), refundInstructions), leftField);
  b.CreateStore(b.CreateSub(b.CreateLoad(b.getInt64Ty(), cycles_), refundCycles), cyclesField);
  for (const auto &[from, to] : regWrites)
    b.CreateStore(b.CreateLoad(b.getInt32Ty(), from), to);
  b.CreateRetVoid();
}

TranslationStats Translator::run() {
  discover();
  for (auto &[index, leader] : leaders_) {
    leader.charge = newBlock("charge");
    leader.body = newBlock("body");
  }
  for (const auto &entry : leaders_) {
    emitCharge(entry.first);
    emitBody(entry.first);
  }
  finish();
  return stats_;
}

} // namespace poplar::native
