// Instruction selection of loads, stores, address arithmetic and memory intrinsics.
#include "passes/FunctionLowering.hpp"

namespace popc::lowering {

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

} // namespace popc::lowering
