// ISA -> LLVM IR for one vertex entry: the function skeleton (blocks charged on entry as the
// fast interpreter loops charge them, registers in SSA values, one exit that writes the frame
// back) and the API the per-opcode builders (OpBuilders.cpp) emit through.
#pragma once

#include "StreamLoop.hpp"
#include "interp/Decoder.hpp"
#include "interp/NativeAbi.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace poplar::native {

using interp::DecodedInsn;
using interp::Trap;

class Translator;
// Emits one instruction at the builder's insertion point. Builders of control-flow
// instructions end the block (a branch or a stop); the others leave it open.
using Builder = void (*)(Translator &t, const DecodedInsn &d);
// The builder of an isa::Opcode value, or null if the opcode has none yet (the instruction is
// then left to the interpreter: the native code hands over where it would issue).
Builder builderFor(std::uint16_t plainOp);

struct TranslationStats {
  std::uint32_t translated = 0; // instructions turned into IR
  std::uint32_t handedOver = 0; // reachable instructions left to the interpreter
  std::uint64_t written = 0;    // bit r: the exit writes register r back (NativeCompiled)
};

class Translator {
public:
  Translator(llvm::Module &module, const interp::NativeRequest &request, const std::string &name);
  // Builds the function; returns what was translated.
  TranslationStats run();

  // ---- the API of the builders ----
  llvm::IRBuilder<> b;

  llvm::Value *reg(unsigned r);             // r0 reads 0
  void set(unsigned r, llvm::Value *value); // writes to r0 (the decoder's sink) are dropped
  // A register as an f32 operand of float arithmetic, and the write of an f32 result. A float
  // result keeps its host value beside its bits (whose NaNs are canonical, Ops.hpp un): float
  // arithmetic reads that value, which differs from the bits only in a NaN's payload, so a
  // NaN stays a NaN and the canonical select is off the chain of dependent operations.
  llvm::Value *freg(unsigned r);
  void setFloat(unsigned r, llvm::Value *x);
  llvm::Value *pair(unsigned r); // rN:rN+1 as an i64, low word in rN
  void setPair(unsigned r, llvm::Value *value);
  llvm::Value *imm(const DecodedInsn &d) { return i32(d.imm); }
  llvm::Value *i32(std::uint32_t v) { return b.getInt32(v); }
  llvm::Value *i64(std::uint64_t v) { return b.getInt64(v); }
  llvm::Value *f(llvm::Value *bits);    // i32 bits -> float
  llvm::Value *bits(llvm::Value *x);    // float -> i32 bits
  llvm::Value *un(llvm::Value *x);      // float -> i32 bits, NaN made canonical (Ops.hpp un)
  llvm::Value *flag(llvm::Value *cond); // i1 -> i32 0/1

  // The host address of a 2^k-byte access at tile address `addr` after the one-compare window
  // check (Steps.hpp inWindow); a failed check stops with the fault Ops.hpp accessTrap gives.
  llvm::Value *access(llvm::Value *addr, unsigned k, const DecodedInsn &d);
  llvm::Value *load(llvm::Value *host, llvm::Type *type);
  void store(llvm::Value *host, llvm::Value *value);

  // WorkerState fields at a byte offset (offsetof), frame.memory, and the worker id.
  llvm::Value *statePtr(std::size_t offset, llvm::Type *type);
  llvm::Value *memoryPtr();
  llvm::Value *stackLimit(bool high);
  llvm::Value *workerId();
  llvm::Value *state(); // the WorkerState, for helpers
  // Calls a host function by address (libpoplar's NativeHelpers).
  const interp::NativeHelpers &helpers() const { return *request_.helpers; }
  template <typename Fn>
  llvm::Value *call(Fn *fn, llvm::Type *result, llvm::ArrayRef<llvm::Value *> args) {
    return callAddress(reinterpret_cast<std::uintptr_t>(fn), result, args);
  }
  // A scratch i32 a helper writes through (its address is the argument).
  llvm::Value *scratch(unsigned i = 0); // i < 2

  // Stops the run at d with `trap` (Trap::None: exit), refunding what d's block paid for
  // beyond d; ends the block. trapIf stops only when `cond` holds and continues otherwise.
  void stop(Trap trap, const DecodedInsn &d, llvm::Value *result = nullptr,
            llvm::Value *address = nullptr);
  void stop(llvm::Value *trap, const DecodedInsn &d, llvm::Value *result, llvm::Value *address);
  void trapIf(llvm::Value *cond, Trap trap, const DecodedInsn &d, llvm::Value *address = nullptr);
  // Stops with the Trap value `trap` (an i32 a helper returned) unless it is Trap::None.
  void trapUnlessNone(llvm::Value *trap, const DecodedInsn &d, llvm::Value *address);
  // Adds thread cycles issued beyond an instruction's table cost (an AMP pass's positions).
  void addCycles(llvm::Value *cycles64);

  // Control transfers: the block that charges and runs the code at `index` (a branch target).
  llvm::BasicBlock *enter(std::uint32_t index);
  void returnTo(llvm::Value *to, const DecodedInsn &d); // ret
  void repeat(const DecodedInsn &d);                    // rpt
  std::uint32_t indexOf(const DecodedInsn &d) const { return std::uint32_t(&d - request_.insns); }

private:
  struct Rpt; // the rpt body being translated, if any
  // One way out of the function: what the exit block's phis take from that edge.
  struct Leave {
    llvm::BasicBlock *from;
    llvm::Value *status, *index, *result, *address; // i32
    llvm::Value *refundInstructions, *refundCycles; // i64: paid for, not issued
  };
  struct Leader {
    llvm::BasicBlock *charge = nullptr, *body = nullptr;
  };

  void discover();
  bool buildable(std::uint32_t index) const;
  bool emitsAuxFirst(std::uint32_t index) const;
  void write(unsigned r, llvm::Value *bits, llvm::Value *value); // set's and setFloat's
  void emitCharge(std::uint32_t index);
  void emitBody(std::uint32_t index);
  // Translates insns[first..] until a control-flow instruction; inside a rpt body, `last`
  // bounds the run. Returns false if an instruction had no builder (after handing over).
  void translateRun(std::uint32_t first, std::uint32_t last, bool stopAtLeaders);
  void handOver(std::uint32_t index, bool refundBlock);
  void handOver(llvm::Value *index);
  std::pair<llvm::Value *, llvm::Value *> refund(std::uint32_t index);
  void leave(const Leave &how);
  // A streaming rpt body's passes as one loop over lanes (StreamLoop.cpp): whether this run's
  // arrays allow it (an i1), and the loop, which sets the body's registers and branches to done.
  llvm::Value *streamable(const StreamLoop &s, llvm::Value *count);
  void streamLoop(const StreamLoop &s, llvm::Value *count, llvm::BasicBlock *done);
  void finish();
  llvm::Value *frameField(std::size_t offset, llvm::Type *type);
  llvm::Value *framePrologueLoad(std::size_t offset, llvm::Type *type);
  llvm::Value *windowField(std::size_t offset, llvm::Type *type); // *frame.window, in the prologue
  llvm::AllocaInst *regSlot(unsigned r);
  llvm::Value *hostBase();
  llvm::Value *callAddress(std::uintptr_t fn, llvm::Type *result,
                           llvm::ArrayRef<llvm::Value *> args);
  llvm::BasicBlock *newBlock(const char *name);
  llvm::AllocaInst *slot(llvm::Type *type, const char *name);

  llvm::Module &module_;
  llvm::LLVMContext &ctx_;
  const interp::NativeRequest &request_;
  llvm::Function *fn_ = nullptr;
  llvm::Value *frame_ = nullptr;
  llvm::BasicBlock *prologue_ = nullptr, *exit_ = nullptr;
  llvm::IRBuilder<> pb_; // appends to the prologue
  std::map<std::uint32_t, Leader> leaders_;
  std::set<std::uint32_t> returnPoints_;
  std::array<llvm::AllocaInst *, 64> regs_{}, floats_{}; // bits, and the host float value
  llvm::AllocaInst *left_ = nullptr, *cycles_ = nullptr;
  llvm::Value *hostBase_ = nullptr;
  std::vector<Leave> leaves_;
  std::array<llvm::AllocaInst *, 2> scratch_{};
  std::map<std::size_t, llvm::Value *> prologueLoads_, stateLoads_, windowLoads_; // by offset
  llvm::Value *fresh_ = nullptr; // i1: NativeFrame::fresh
  std::array<bool, 64> written_{};
  // While an aux half of a bundle is emitted ahead of its main half (translateRun), its
  // register writes wait here (bits and float value) until the main half has been emitted.
  struct Deferred {
    unsigned reg;
    llvm::Value *bits, *value;
  };
  bool deferring_ = false;
  std::vector<Deferred> deferred_;
  Rpt *rpt_ = nullptr;
  TranslationStats stats_;
};

} // namespace poplar::native
