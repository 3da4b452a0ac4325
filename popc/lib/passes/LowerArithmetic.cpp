// Instruction selection of 32-bit arithmetic, compares and casts.
#include "passes/FunctionLowering.hpp"

namespace popc::lowering {

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

} // namespace popc::lowering
