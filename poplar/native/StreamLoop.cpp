// A streaming rpt body (StreamLoop.hpp) run as one loop over 32-bit lanes: the test that lets
// it (every pass's accesses aligned and in the window, each stored array apart from every other
// array) and the loop, whose lanes are independent, so LLVM vectorises it as a plain C loop.
#include "StreamLoop.hpp"
#include "CheckVersioning.hpp"
#include "Translator.hpp"
#include "interp/Steps.hpp"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include <array>

namespace poplar::native {

using namespace llvm;

namespace {

bool isAccess(const StreamStep &s) { return s.kind != StreamStep::Kind::Op; }

} // namespace

Value *Translator::streamable(const StreamLoop &s, Value *count) {
  using W = interp::ops::Window;
  const unsigned k = s.lanes == 2 ? 3 : 2; // the access is 2^k bytes
  const std::uint64_t unit = 4 * s.lanes;
  Value *lo = windowField(offsetof(W, lo) + 4 * k, pb_.getInt32Ty());
  Value *span = windowField(offsetof(W, span) + 8 * k, pb_.getInt64Ty());
  Value *bytes = b.CreateMul(count, i64(unit));
  auto first = [&](const StreamStep &a) { return b.CreateZExt(reg(a.ptr), b.getInt64Ty()); };
  Value *ok = b.getTrue();
  for (const StreamStep &a : s.steps) {
    if (!isAccess(a))
      continue;
    // The first and last accesses in the window, aligned, with no wrap between: all of them.
    Value *from = first(a), *last = b.CreateAdd(from, b.CreateSub(bytes, i64(unit)));
    ok = b.CreateAnd(ok, b.CreateICmpULT(last, i64(std::uint64_t(1) << 32)));
    for (Value *at : {from, last})
      ok = b.CreateAnd(ok, b.CreateCall(windowCheck(module_),
                                        {b.CreateTrunc(at, b.getInt32Ty()), lo, span, i32(k)}));
  }
  // Stores moved across the loads and stores of other passes must not meet them.
  for (const StreamStep &stored : s.steps) {
    if (stored.kind != StreamStep::Kind::Store)
      continue;
    for (const StreamStep &a : s.steps)
      if (isAccess(a) && &a != &stored) {
        Value *x = first(stored), *y = first(a);
        ok = b.CreateAnd(ok, b.CreateOr(b.CreateICmpULE(b.CreateAdd(x, bytes), y),
                                        b.CreateICmpULE(b.CreateAdd(y, bytes), x)));
      }
  }
  // A pair an op reads unchanged is the same operand in every lane only if its halves are.
  if (s.lanes == 2)
    for (std::uint8_t r : s.invariants)
      ok = b.CreateAnd(ok, b.CreateICmpEQ(reg(r), reg(r + 1)));
  return ok;
}

void Translator::streamLoop(const StreamLoop &s, Value *count, BasicBlock *done) {
  const unsigned w = s.lanes;
  const std::size_t n = s.steps.size();
  Type *word = b.getInt32Ty();
  // Each access's array: its first lane on the host, and an alias scope of its own (the test
  // showed the stored arrays apart), so the vectoriser needs no overlap checks of its own.
  MDBuilder md(ctx_);
  MDNode *domain = md.createAnonymousAliasScopeDomain("stream");
  std::vector<Value *> start(n), host(n);
  std::vector<MDNode *> scope(n), others(n);
  for (std::size_t i = 0; i < n; ++i)
    if (isAccess(s.steps[i])) {
      start[i] = b.CreateZExt(reg(s.steps[i].ptr), b.getInt64Ty());
      host[i] = b.CreateGEP(b.getInt8Ty(), hostBase(), start[i]);
      scope[i] = md.createAnonymousAliasScope(domain);
    }
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<Metadata *> rest;
    for (std::size_t j = 0; j < n; ++j)
      if (scope[j] && j != i)
        rest.push_back(scope[j]);
    if (scope[i])
      others[i] = MDNode::get(ctx_, rest);
  }
  auto address = [&](std::size_t i, Value *lane) {
    Value *at = b.CreateGEP(b.getInt8Ty(), host[i], b.CreateShl(lane, 2));
    return b.CreateBitCast(at, word->getPointerTo());
  };
  auto tag = [&](Instruction *access, std::size_t i) {
    access->setMetadata(LLVMContext::MD_alias_scope, MDNode::get(ctx_, {scope[i]}));
    access->setMetadata(LLVMContext::MD_noalias, others[i]);
    return access;
  };
  auto loadLane = [&](std::size_t i, Value *lane) {
    return tag(b.CreateAlignedLoad(word, address(i, lane), Align(4)), i);
  };
  auto storeLane = [&](std::size_t i, Value *lane, Value *bits) {
    tag(b.CreateAlignedStore(bits, address(i, lane), Align(4)), i);
  };

  // One lane of a pass: its loads, arithmetic and stores, a delayed store then writing the
  // value a lane of the next pass stores. Returns each written register's bits and value.
  struct Lane {
    Value *bits = nullptr, *value = nullptr;
  };
  using Lanes = std::array<Lane, isa::kNumRegs>;
  Function *fma = Intrinsic::getDeclaration(&module_, Intrinsic::fma, {b.getFloatTy()});
  auto lane = [&](Value *j, bool delayedStores) {
    Lanes v{};
    auto operand = [&](unsigned r) { return v[r].value ? v[r].value : freg(r); };
    for (std::size_t i = 0; i < n; ++i) {
      const StreamStep &st = s.steps[i];
      if (st.kind == StreamStep::Kind::Load) {
        Value *bits = loadLane(i, j);
        v[st.reg] = {bits, f(bits)};
      } else if (st.kind == StreamStep::Kind::Op) {
        Value *x = operand(st.src[0]), *y = operand(st.src[1]), *r = nullptr;
        switch (st.op) {
        case LaneOp::Add:
          r = b.CreateFAdd(x, y);
          break;
        case LaneOp::Sub:
          r = b.CreateFSub(x, y);
          break;
        case LaneOp::Mul:
          r = b.CreateFMul(x, y);
          break;
        case LaneOp::Fma:
          r = b.CreateCall(fma, {x, y, operand(st.src[2])});
          break;
        }
        v[st.reg] = {un(r), r};
      } else if (!st.delayed) {
        storeLane(i, j, v[st.reg].bits);
      }
    }
    if (delayedStores)
      for (std::size_t i = 0; i < n; ++i)
        if (s.steps[i].kind == StreamStep::Kind::Store && s.steps[i].delayed)
          storeLane(i, b.CreateAdd(j, i64(w)), v[s.steps[i].reg].bits);
    return v;
  };

  // The first pass's delayed stores store what their registers held as the rpt began.
  for (std::size_t i = 0; i < n; ++i)
    if (s.steps[i].kind == StreamStep::Kind::Store && s.steps[i].delayed)
      for (unsigned l = 0; l < w; ++l)
        storeLane(i, i64(l), reg(s.steps[i].reg + l));
  // Every pass but the last, lane by lane; then the last, whose values stay in the registers.
  Value *before = b.CreateMul(b.CreateSub(count, i64(1)), i64(w));
  BasicBlock *entry = b.GetInsertBlock(), *body = newBlock("stream.lanes"),
             *last = newBlock("stream.last");
  b.CreateCondBr(b.CreateICmpEQ(before, i64(0)), last, body);
  b.SetInsertPoint(body);
  PHINode *j = b.CreatePHI(b.getInt64Ty(), 2);
  j->addIncoming(i64(0), entry);
  lane(j, true);
  Value *next = b.CreateAdd(j, i64(1), "", true, true);
  j->addIncoming(next, b.GetInsertBlock());
  b.CreateCondBr(b.CreateICmpULT(next, before), body, last);
  b.SetInsertPoint(last);
  std::vector<Lanes> lastPass;
  for (unsigned l = 0; l < w; ++l)
    lastPass.push_back(lane(b.CreateAdd(before, i64(l)), false));
  // Each register the body writes holds its last write of the last pass.
  for (unsigned r = 0; r < isa::kNumRegs; ++r)
    if (lastPass[0][r].bits)
      for (unsigned l = 0; l < w; ++l)
        write(r + l, lastPass[l][r].bits, lastPass[l][r].value);
  for (std::size_t i = 0; i < n; ++i)
    if (isAccess(s.steps[i]))
      set(s.steps[i].ptr,
          b.CreateTrunc(b.CreateAdd(start[i], b.CreateMul(count, i64(4 * w))), word));
  b.CreateBr(done);
}

} // namespace poplar::native
