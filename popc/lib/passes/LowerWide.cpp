// Instruction selection of i64 values: each operation as the 32-bit sequence the IPU runs.
#include "passes/FunctionLowering.hpp"

namespace popc::lowering {

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

} // namespace popc::lowering
