// One IR builder per opcode: the native tier's rows of the interpreter's handlers
// (InterpreterLoop.inc, Steps.hpp, Ops.hpp), the same semantics in the same order, grouped as
// Opcodes.def groups them. An opcode without a row is left to the interpreter.
#include "Translator.hpp"

#include "interp/Ops.hpp"

#include <llvm/IR/Intrinsics.h>

#include <array>
#include <cstddef>

namespace poplar::native {

namespace {

using isa::Opcode;
using llvm::Value;
using llvm::Intrinsic::ID;
using T = Translator;
using D = DecodedInsn;
using W = interp::WorkerState;

Value *ra(T &t, const D &d) { return t.reg(d.ra); }
Value *rb(T &t, const D &d) { return t.reg(d.rb); }
Value *rc(T &t, const D &d) { return t.reg(d.rc); }
Value *hi(T &t, unsigned r) { return t.reg(r + 1); } // the high word of a pair

Value *intrinsic(T &t, ID id, llvm::Type *type, llvm::ArrayRef<Value *> args) {
  return t.b.CreateIntrinsic(id, {type}, args);
}
Value *fl(T &t, ID id, llvm::ArrayRef<Value *> args) { // an f32 intrinsic
  return intrinsic(t, id, t.b.getFloatTy(), args);
}
Value *signExtend(T &t, Value *v, unsigned bits) {
  return t.b.CreateSExt(t.b.CreateTrunc(v, t.b.getIntNTy(bits)), t.b.getInt32Ty());
}
Value *low(T &t, Value *v, unsigned bits) { return t.b.CreateTrunc(v, t.b.getIntNTy(bits)); }
Value *u32(T &t, Value *v) { return t.b.CreateZExt(v, t.b.getInt32Ty()); }

// ---- integer division: zero divisors trap; x / -1 and x % -1 never reach the host divide ----

void divide(T &t, const D &d, Value *divisor, bool isSigned, bool remainder) {
  auto &b = t.b;
  t.trapIf(b.CreateICmpEQ(divisor, t.i32(0)), Trap::DivideByZero, d);
  Value *a = ra(t, d);
  if (!isSigned) {
    t.set(d.rd, remainder ? b.CreateURem(a, divisor) : b.CreateUDiv(a, divisor));
    return;
  }
  Value *minusOne = b.CreateICmpEQ(divisor, t.i32(~0u));
  Value *safe = b.CreateSelect(minusOne, t.i32(1), divisor);
  Value *q = remainder ? b.CreateSRem(a, safe) : b.CreateSDiv(a, safe);
  t.set(d.rd, b.CreateSelect(minusOne, remainder ? t.i32(0) : b.CreateNeg(a), q));
}

Value *mulHigh(T &t, Value *a, Value *b, bool isSigned) {
  auto &B = t.b;
  auto widen = [&](Value *v) {
    return isSigned ? B.CreateSExt(v, B.getInt64Ty()) : B.CreateZExt(v, B.getInt64Ty());
  };
  return B.CreateTrunc(B.CreateLShr(B.CreateMul(widen(a), widen(b)), 32), B.getInt32Ty());
}

// ---- f32 ----

// IEEE minimumNumber / maximumNumber as Ops.hpp fmin/fmax: a NaN loses, -0 < +0, two NaNs give
// the canonical NaN; the result is one of the inputs bit for bit.
Value *minMax(T &t, Value *a, Value *b, bool max) {
  auto &B = t.b;
  Value *x = t.f(a), *y = t.f(b);
  Value *xNaN = B.CreateFCmpUNO(x, x), *yNaN = B.CreateFCmpUNO(y, y);
  Value *signX = B.CreateICmpSLT(a, t.i32(0));
  Value *better = max ? B.CreateFCmpOGT(x, y) : B.CreateFCmpOLT(x, y);
  Value *tieWins = B.CreateAnd(B.CreateFCmpOEQ(x, y), max ? B.CreateNot(signX) : signX);
  Value *takeA = B.CreateOr(yNaN, B.CreateOr(better, tieWins));
  Value *ordered = B.CreateSelect(takeA, a, b);
  return B.CreateSelect(xNaN, B.CreateSelect(yNaN, t.i32(isa::kCanonicalNaN), b), ordered);
}

// rd:2 = op(ra:2, rb:2) lane by lane; both sources are read before either lane is written.
template <typename Op> void f32v2(T &t, const D &d, Op op) {
  Value *x0 = op(t.freg(d.ra), t.freg(d.rb));
  Value *x1 = op(t.freg(d.ra + 1), t.freg(d.rb + 1));
  t.setFloat(d.rd, x0);
  t.setFloat(d.rd + 1, x1);
}

Value *callU32(T &t, std::uint32_t (*fn)(std::uint32_t), Value *a) {
  return t.call(fn, t.b.getInt32Ty(), {a});
}

// ---- memory ----

Value *offsetAddress(T &t, const D &d) { return t.b.CreateAdd(ra(t, d), t.imm(d)); }

// A load of 2^k bytes at `addr`, extended to 32 bits (zero, sign, or f16 -> f32).
enum class Ext { Zero, Sign, Half };
Value *loadWord(T &t, const D &d, Value *addr, unsigned k, Ext ext) {
  Value *host = t.access(addr, k, d);
  Value *v = t.load(host, t.b.getIntNTy(8u << k));
  if (k == 2)
    return v;
  if (ext == Ext::Half)
    return callU32(t, t.helpers().htof, u32(t, v));
  return ext == Ext::Sign ? t.b.CreateSExt(v, t.b.getInt32Ty()) : u32(t, v);
}

// The Load / LoadPost forms: the access is checked at the address first; a post-increment
// updates ra before rd is written, so rd wins when they are the same register.
void loadOp(T &t, const D &d, unsigned k, Ext ext, bool post) {
  Value *addr = post ? ra(t, d) : offsetAddress(t, d);
  if (k == 3) {
    // One 64-bit access, not two words: the vectoriser then sees one pointer a unit apart per
    // access (two words' ranges interleave, and its run-time overlap checks failed on them).
    Value *host = t.access(addr, 3, d);
    Value *both = t.load(host, t.b.getInt64Ty());
    if (post)
      t.set(d.ra, t.b.CreateAdd(addr, t.imm(d)));
    t.setPair(d.rd, both);
    return;
  }
  Value *v = loadWord(t, d, addr, k, ext);
  if (post)
    t.set(d.ra, t.b.CreateAdd(addr, t.imm(d)));
  t.set(d.rd, v);
}

// The Store / StorePost forms; rb is read before a post-increment changes ra.
void storeOp(T &t, const D &d, unsigned k, bool half, bool post) {
  Value *addr = post ? ra(t, d) : offsetAddress(t, d);
  Value *host = t.access(addr, k, d);
  Value *v = rb(t, d);
  if (k == 3) {
    t.store(host, t.pair(d.rb));
  } else {
    if (half)
      v = callU32(t, t.helpers().ftoh, v);
    t.store(host, k == 2 ? v : low(t, v, 8u << k));
  }
  if (post)
    t.set(d.ra, t.b.CreateAdd(addr, t.imm(d)));
}

// ---- AMP ----

Value *accPtr(T &t, unsigned i) { return t.statePtr(offsetof(W, acc) + 4 * i, t.b.getInt32Ty()); }

template <typename Fn> void ampPass(T &t, const D &d, Fn *fn, std::uint32_t perPosition) {
  auto &b = t.b;
  Value *ctl = rc(t, d);
  Value *trap =
      t.call(fn, b.getInt32Ty(), {t.state(), t.memoryPtr(), ra(t, d), rb(t, d), ctl, t.scratch()});
  t.trapUnlessNone(trap, d, b.CreateLoad(b.getInt32Ty(), t.scratch()));
  Value *n = b.CreateAnd(ctl, t.i32(0x7fffffffu));
  t.set(d.rd, n);
  t.addCycles(b.CreateMul(b.CreateZExt(n, b.getInt64Ty()), t.i64(perPosition)));
}

template <typename Fn> void ampCoefficients(T &t, const D &d, Fn *fn) {
  auto &b = t.b;
  Value *base = ra(t, d);
  Value *trap = t.call(fn, b.getInt32Ty(), {t.state(), t.memoryPtr(), base, rb(t, d), t.scratch()});
  t.trapUnlessNone(trap, d, base);
  t.set(d.rd, b.CreateLoad(b.getInt32Ty(), t.scratch()));
}

template <typename Fn> void ampWeights(T &t, const D &d, Fn *fn) {
  Value *addr = ra(t, d);
  t.trapUnlessNone(t.call(fn, t.b.getInt32Ty(), {t.state(), t.memoryPtr(), addr}), d, addr);
}

// ---- builders of more than one statement ----

void spadd(T &t, const D &d) {
  auto &b = t.b;
  Value *sp = b.CreateAdd(b.CreateZExt(t.reg(isa::kRegSp), b.getInt64Ty()),
                          b.CreateSExt(t.imm(d), b.getInt64Ty()));
  Value *below = b.CreateICmpSLT(sp, b.CreateZExt(t.stackLimit(false), b.getInt64Ty()));
  Value *above = b.CreateICmpSGT(sp, b.CreateZExt(t.stackLimit(true), b.getInt64Ty()));
  t.trapIf(b.CreateOr(below, above), Trap::StackOverflow, d);
  t.set(isa::kRegSp, b.CreateTrunc(sp, b.getInt32Ty()));
}

void trap(T &t, const D &d) {
  const bool assertion = std::int32_t(d.imm) == isa::kTrapAssertion;
  t.stop(assertion ? Trap::AssertionFailed : Trap::Explicit, d, t.imm(d));
}

Value *saturate(T &t, const D &d, ID id) {
  return t.b.CreateIntrinsic(id, {t.b.getInt32Ty(), t.b.getFloatTy()}, {t.freg(d.ra)});
}

void f32v2fma(T &t, const D &d) {
  Value *x0 = fl(t, llvm::Intrinsic::fma, {t.freg(d.ra), t.freg(d.rb), t.freg(d.rc)});
  Value *x1 = fl(t, llvm::Intrinsic::fma, {t.freg(d.ra + 1), t.freg(d.rb + 1), t.freg(d.rc + 1)});
  t.setFloat(d.rd, x0);
  t.setFloat(d.rd + 1, x1);
}

void f16v2tof32v2(T &t, const D &d) {
  Value *v = ra(t, d);
  Value *lo = callU32(t, t.helpers().htof, t.b.CreateAnd(v, 0xffff));
  Value *high = callU32(t, t.helpers().htof, t.b.CreateLShr(v, 16));
  t.set(d.rd, lo);
  t.set(d.rd + 1, high);
}

void f32v2tof16v2(T &t, const D &d) {
  Value *lo = callU32(t, t.helpers().ftoh, ra(t, d));
  Value *high = callU32(t, t.helpers().ftoh, hi(t, d.ra));
  t.set(d.rd, t.b.CreateOr(lo, t.b.CreateShl(high, 16)));
}

void conditional(T &t, const D &d, bool ifZero) {
  Value *a = ra(t, d);
  Value *taken = ifZero ? t.b.CreateICmpEQ(a, t.i32(0)) : t.b.CreateICmpNE(a, t.i32(0));
  t.b.CreateCondBr(taken, t.enter(d.imm), t.enter(t.indexOf(d) + 1));
}

void brnzdec(T &t, const D &d) {
  auto &b = t.b;
  Value *n = ra(t, d);
  Value *taken = b.CreateICmpNE(n, t.i32(0));
  t.set(d.ra, b.CreateSelect(taken, b.CreateSub(n, t.i32(1)), n));
  b.CreateCondBr(taken, t.enter(d.imm), t.enter(t.indexOf(d) + 1));
}

void call(T &t, const D &d) {
  t.set(isa::kRegLr, t.i32(d.pc + 1));
  t.b.CreateBr(t.enter(d.imm));
}

void ampclr(T &t, const D &) {
  for (unsigned i = 0; i < isa::kNumAccumulators; ++i)
    t.b.CreateStore(t.i32(0), accPtr(t, i));
}

void ampget(T &t, const D &d) {
  Value *lo = t.b.CreateLoad(t.b.getInt32Ty(), accPtr(t, 2 * d.imm));
  Value *high = t.b.CreateLoad(t.b.getInt32Ty(), accPtr(t, 2 * d.imm + 1));
  t.set(d.rd, lo);
  t.set(d.rd + 1, high);
}

void ampput(T &t, const D &d) {
  t.b.CreateStore(ra(t, d), accPtr(t, 2 * d.imm));
  t.b.CreateStore(hi(t, d.ra), accPtr(t, 2 * d.imm + 1));
}

void ampcfg(T &t, const D &d) {
  using A = interp::AmpPassState;
  auto stride = [&](std::size_t field) {
    return t.statePtr(offsetof(W, amp) + field, t.b.getInt32Ty());
  };
  t.b.CreateStore(ra(t, d), stride(offsetof(A, inStride)));
  t.b.CreateStore(rb(t, d), stride(offsetof(A, outStride)));
  t.set(d.rd, t.i32(0));
}

// print's only fault is an address outside the tile (its accessAlign is 1).
void print(T &t, const D &d) {
  auto &b = t.b;
  Value *ok = t.call(t.helpers().print, b.getInt32Ty(),
                     {t.memoryPtr(), ra(t, d), rb(t, d), t.scratch(0), t.scratch(1)});
  t.trapIf(b.CreateICmpEQ(ok, t.i32(0)), Trap::OutOfBounds, d,
           b.CreateLoad(b.getInt32Ty(), t.scratch(1)));
  t.set(d.rd, b.CreateLoad(b.getInt32Ty(), t.scratch(0)));
}

// ---- the rows ----

struct Row {
  Opcode op;
  Builder build;
};

// A row whose builder is one statement over t (Translator), d (the instruction), b (its
// IRBuilder), and for the arithmetic shapes a, c (operands: ra and rb or imm) or x, y (f32 ra,
// rb as the registers' float values, Translator::freg).
#define ROW(name, ...)                                                                             \
  {                                                                                                \
    Opcode::name, [](T &t, const D &d) {                                                           \
      [[maybe_unused]] auto &b = t.b;                                                              \
      __VA_ARGS__;                                                                                 \
    }                                                                                              \
  }
#define SET(name, ...) ROW(name, t.set(d.rd, __VA_ARGS__))
#define INT2(name, ...)                                                                            \
  SET(name, [&](Value *a, Value *c) { return __VA_ARGS__; }(ra(t, d), rb(t, d)))
#define INTI(name, ...)                                                                            \
  SET(name, [&](Value *a, Value *c) { return __VA_ARGS__; }(ra(t, d), t.imm(d)))
#define F2(name, ...)                                                                              \
  ROW(name, t.setFloat(d.rd, [&](Value *x, Value *y) { return __VA_ARGS__; }(t.freg(d.ra),         \
                                                                             t.freg(d.rb))))
#define F1(name, ...)                                                                              \
  ROW(name, t.setFloat(d.rd, [&](Value *x) { return __VA_ARGS__; }(t.freg(d.ra))))
#define FCMP(name, ...)                                                                            \
  SET(name, t.flag([&](Value *x, Value *y) { return __VA_ARGS__; }(t.freg(d.ra), t.freg(d.rb))))
#define HELPER1(name, helper) SET(name, callU32(t, t.helpers().helper, ra(t, d)))
#define LOAD(name, k, ext, post) ROW(name, loadOp(t, d, k, Ext::ext, post))
#define STORE(name, k, half, post) ROW(name, storeOp(t, d, k, half, post))

using llvm::Intrinsic::ctlz;
using llvm::Intrinsic::ctpop;
using llvm::Intrinsic::cttz;

const Row kRows[] = {
    // Moves and system
    ROW(Nop, ),
    SET(Movi, t.imm(d)),
    SET(Mov, ra(t, d)),
    SET(Wid, t.workerId()),
    {Opcode::Spadd, spadd},
    ROW(Exit, t.stop(Trap::None, d, ra(t, d))),
    {Opcode::Trap, trap},

    // Integer arithmetic and logic
    INT2(Add, b.CreateAdd(a, c)),
    INT2(Sub, b.CreateSub(a, c)),
    INT2(Mul, b.CreateMul(a, c)),
    INT2(Mulhs, mulHigh(t, a, c, true)),
    INT2(Mulhu, mulHigh(t, a, c, false)),
    ROW(Divs, divide(t, d, rb(t, d), true, false)),
    ROW(Divu, divide(t, d, rb(t, d), false, false)),
    ROW(Rems, divide(t, d, rb(t, d), true, true)),
    ROW(Remu, divide(t, d, rb(t, d), false, true)),
    INT2(And, b.CreateAnd(a, c)),
    INT2(Or, b.CreateOr(a, c)),
    INT2(Xor, b.CreateXor(a, c)),
    INT2(Shl, b.CreateShl(a, b.CreateAnd(c, 31))),
    INT2(Shr, b.CreateLShr(a, b.CreateAnd(c, 31))),
    INT2(Sra, b.CreateAShr(a, b.CreateAnd(c, 31))),
    INT2(Mins, b.CreateSelect(b.CreateICmpSLT(a, c), a, c)),
    INT2(Maxs, b.CreateSelect(b.CreateICmpSGT(a, c), a, c)),
    INT2(Minu, b.CreateSelect(b.CreateICmpULT(a, c), a, c)),
    INT2(Maxu, b.CreateSelect(b.CreateICmpUGT(a, c), a, c)),
    SET(Clz, intrinsic(t, ctlz, b.getInt32Ty(), {ra(t, d), b.getFalse()})),
    SET(Ctz, intrinsic(t, cttz, b.getInt32Ty(), {ra(t, d), b.getFalse()})),
    SET(Popc, intrinsic(t, ctpop, b.getInt32Ty(), {ra(t, d)})),
    SET(Sext8, signExtend(t, ra(t, d), 8)),
    SET(Sext16, signExtend(t, ra(t, d), 16)),
    SET(Zext8, b.CreateAnd(ra(t, d), 0xff)),
    SET(Zext16, b.CreateAnd(ra(t, d), 0xffff)),
    INTI(Addi, b.CreateAdd(a, c)),
    INTI(Muli, b.CreateMul(a, c)),
    ROW(Divsi, divide(t, d, t.imm(d), true, false)),
    ROW(Divui, divide(t, d, t.imm(d), false, false)),
    ROW(Remsi, divide(t, d, t.imm(d), true, true)),
    ROW(Remui, divide(t, d, t.imm(d), false, true)),
    INTI(Andi, b.CreateAnd(a, c)),
    INTI(Ori, b.CreateOr(a, c)),
    INTI(Xori, b.CreateXor(a, c)),
    INTI(Shli, b.CreateShl(a, b.CreateAnd(c, 31))),
    INTI(Shri, b.CreateLShr(a, b.CreateAnd(c, 31))),
    INTI(Srai, b.CreateAShr(a, b.CreateAnd(c, 31))),

    // Integer compares and select
    INT2(Cmpeq, t.flag(b.CreateICmpEQ(a, c))),
    INT2(Cmpne, t.flag(b.CreateICmpNE(a, c))),
    INT2(Cmplt, t.flag(b.CreateICmpSLT(a, c))),
    INT2(Cmple, t.flag(b.CreateICmpSLE(a, c))),
    INT2(Cmpgt, t.flag(b.CreateICmpSGT(a, c))),
    INT2(Cmpge, t.flag(b.CreateICmpSGE(a, c))),
    INT2(Cmpltu, t.flag(b.CreateICmpULT(a, c))),
    INT2(Cmpleu, t.flag(b.CreateICmpULE(a, c))),
    INT2(Cmpgtu, t.flag(b.CreateICmpUGT(a, c))),
    INT2(Cmpgeu, t.flag(b.CreateICmpUGE(a, c))),
    INTI(Cmpeqi, t.flag(b.CreateICmpEQ(a, c))),
    INTI(Cmpnei, t.flag(b.CreateICmpNE(a, c))),
    INTI(Cmplti, t.flag(b.CreateICmpSLT(a, c))),
    INTI(Cmplei, t.flag(b.CreateICmpSLE(a, c))),
    INTI(Cmpgti, t.flag(b.CreateICmpSGT(a, c))),
    INTI(Cmpgei, t.flag(b.CreateICmpSGE(a, c))),
    INTI(Cmpltui, t.flag(b.CreateICmpULT(a, c))),
    INTI(Cmpleui, t.flag(b.CreateICmpULE(a, c))),
    INTI(Cmpgtui, t.flag(b.CreateICmpUGT(a, c))),
    INTI(Cmpgeui, t.flag(b.CreateICmpUGE(a, c))),
    SET(Sel, b.CreateSelect(b.CreateICmpNE(rc(t, d), t.i32(0)), ra(t, d), rb(t, d))),

    // f32 arithmetic
    F2(Fadd, b.CreateFAdd(x, y)),
    F2(Fsub, b.CreateFSub(x, y)),
    F2(Fmul, b.CreateFMul(x, y)),
    F2(Fdiv, b.CreateFDiv(x, y)),
    ROW(Fma,
        t.setFloat(d.rd, fl(t, llvm::Intrinsic::fma, {t.freg(d.ra), t.freg(d.rb), t.freg(d.rc)}))),
    SET(Fmin, minMax(t, ra(t, d), rb(t, d), false)),
    SET(Fmax, minMax(t, ra(t, d), rb(t, d), true)),
    SET(Fabs, b.CreateAnd(ra(t, d), 0x7fffffffu)),
    SET(Fneg, b.CreateXor(ra(t, d), 0x80000000u)),
    F1(Fsqrt, fl(t, llvm::Intrinsic::sqrt, {x})),
    HELPER1(Fexp, fexp),
    HELPER1(Flog, flog),
    HELPER1(Ftanh, ftanh),
    HELPER1(Fsin, fsin),
    HELPER1(Fcos, fcos),
    SET(Fpow, t.call(t.helpers().fpow, b.getInt32Ty(), {ra(t, d), rb(t, d)})),
    F1(Ffloor, fl(t, llvm::Intrinsic::floor, {x})),
    F1(Fceil, fl(t, llvm::Intrinsic::ceil, {x})),
    F1(Fround, fl(t, llvm::Intrinsic::round, {x})),
    F1(Ftrunc, fl(t, llvm::Intrinsic::trunc, {x})),

    // f32 compares
    FCMP(Feq, b.CreateFCmpOEQ(x, y)),
    FCMP(Fne, b.CreateFCmpUNE(x, y)),
    FCMP(Flt, b.CreateFCmpOLT(x, y)),
    FCMP(Fle, b.CreateFCmpOLE(x, y)),
    FCMP(Fgt, b.CreateFCmpOGT(x, y)),
    FCMP(Fge, b.CreateFCmpOGE(x, y)),
    FCMP(Ford, b.CreateFCmpORD(x, y)),
    FCMP(Funo, b.CreateFCmpUNO(x, y)),

    // Conversions (the saturating intrinsics give 0 for NaN, as Ops.hpp ftoi/ftou do)
    SET(Ftoi, saturate(t, d, llvm::Intrinsic::fptosi_sat)),
    SET(Ftou, saturate(t, d, llvm::Intrinsic::fptoui_sat)),
    ROW(Itof, t.setFloat(d.rd, b.CreateSIToFP(ra(t, d), b.getFloatTy()))),
    ROW(Utof, t.setFloat(d.rd, b.CreateUIToFP(ra(t, d), b.getFloatTy()))),
    HELPER1(Ftoh, ftoh),
    HELPER1(Htof, htof),

    // 64-bit vectors on register pairs
    ROW(F32v2add, f32v2(t, d, [&](Value *x, Value *y) { return b.CreateFAdd(x, y); })),
    ROW(F32v2sub, f32v2(t, d, [&](Value *x, Value *y) { return b.CreateFSub(x, y); })),
    ROW(F32v2mul, f32v2(t, d, [&](Value *x, Value *y) { return b.CreateFMul(x, y); })),
    {Opcode::F32v2fma, f32v2fma},
    ROW(F32v2sum, t.setFloat(d.rd, b.CreateFAdd(t.freg(d.ra), t.freg(d.ra + 1)))),
    ROW(F16v4add, t.setPair(d.rd, t.call(t.helpers().f16v4add, b.getInt64Ty(),
                                         {t.pair(d.ra), t.pair(d.rb)}))),
    ROW(F16v4mul, t.setPair(d.rd, t.call(t.helpers().f16v4mul, b.getInt64Ty(),
                                         {t.pair(d.ra), t.pair(d.rb)}))),
    ROW(F16v4fma, t.setPair(d.rd, t.call(t.helpers().f16v4fma, b.getInt64Ty(),
                                         {t.pair(d.ra), t.pair(d.rb), t.pair(d.rc)}))),
    SET(F16v4sum, t.call(t.helpers().f16v4sum, b.getInt32Ty(), {t.pair(d.ra)})),
    {Opcode::F16v2tof32v2, f16v2tof32v2},
    {Opcode::F32v2tof16v2, f32v2tof16v2},

    // Loads and stores
    LOAD(Ld8s, 0, Sign, false),
    LOAD(Ld8u, 0, Zero, false),
    LOAD(Ld16s, 1, Sign, false),
    LOAD(Ld16u, 1, Zero, false),
    LOAD(Ld32, 2, Zero, false),
    LOAD(Ld64, 3, Zero, false),
    LOAD(Ldh, 1, Half, false),
    STORE(St8, 0, false, false),
    STORE(St16, 1, false, false),
    STORE(St32, 2, false, false),
    STORE(St64, 3, false, false),
    STORE(Sth, 1, true, false),
    LOAD(Ld8sp, 0, Sign, true),
    LOAD(Ld8up, 0, Zero, true),
    LOAD(Ld16sp, 1, Sign, true),
    LOAD(Ld16up, 1, Zero, true),
    LOAD(Ld32p, 2, Zero, true),
    LOAD(Ld64p, 3, Zero, true),
    LOAD(Ldhp, 1, Half, true),
    STORE(St8p, 0, false, true),
    STORE(St16p, 1, false, true),
    STORE(St32p, 2, false, true),
    STORE(St64p, 3, false, true),
    STORE(Sthp, 1, true, true),

    // Control flow
    ROW(Br, b.CreateBr(t.enter(d.imm))),
    ROW(Brz, conditional(t, d, true)),
    ROW(Brnz, conditional(t, d, false)),
    {Opcode::Brnzdec, brnzdec},
    {Opcode::Call, call},
    ROW(Ret, t.returnTo(t.reg(isa::kRegLr), d)),
    ROW(Rpt, t.repeat(d)),

    // AMP
    {Opcode::Ampclr, ampclr},
    ROW(Ampwf32, ampWeights(t, d, t.helpers().ampwf32)),
    ROW(Ampwf16, ampWeights(t, d, t.helpers().ampwf16)),
    ROW(Ampf32, t.call(t.helpers().ampf32, b.getVoidTy(), {t.state(), ra(t, d), hi(t, d.ra)})),
    ROW(Ampf16, t.call(t.helpers().ampf16, b.getVoidTy(), {t.state(), ra(t, d), hi(t, d.ra)})),
    {Opcode::Ampget, ampget},
    {Opcode::Ampput, ampput},
    {Opcode::Ampcfg, ampcfg},
    ROW(Ampw32, ampCoefficients(t, d, t.helpers().ampw32)),
    ROW(Ampw16, ampCoefficients(t, d, t.helpers().ampw16)),
    ROW(Amp32, ampPass(t, d, t.helpers().amp32, isa::kAmpF32CyclesPerPosition)),
    ROW(Amp16, ampPass(t, d, t.helpers().amp16, isa::kAmpF16CyclesPerPosition)),
    ROW(Amp16h, ampPass(t, d, t.helpers().amp16h, isa::kAmpF16CyclesPerPosition)),

    // Host services
    {Opcode::Print, print},
};

#undef ROW
#undef SET
#undef INT2
#undef INTI
#undef F2
#undef F1
#undef FCMP
#undef HELPER1
#undef LOAD
#undef STORE

const std::array<Builder, isa::kNumOpcodes> kBuilders = [] {
  std::array<Builder, isa::kNumOpcodes> table{};
  for (const Row &row : kRows)
    table[unsigned(row.op)] = row.build;
  return table;
}();

} // namespace

Builder builderFor(std::uint16_t plainOp) {
  return plainOp < isa::kNumOpcodes ? kBuilders[plainOp] : nullptr;
}

} // namespace poplar::native
