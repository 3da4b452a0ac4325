// Instruction selection of 64-bit vector operations and of lane insertion and extraction.
#include "passes/FunctionLowering.hpp"

namespace popc::lowering {

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

} // namespace popc::lowering
