// Instruction selection of calls: functions, intrinsics, math builtins and printf.
#include "passes/FunctionLowering.hpp"

namespace popc::lowering {

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

} // namespace popc::lowering
