// Instruction selection: each LLVM instruction -> tile instructions over virtual registers.
// The value representation and the lowering's state are in FunctionLowering.hpp; the kinds of
// instruction are lowered in LowerArithmetic, LowerMemory, LowerCalls, LowerWide and
// LowerVectors.
#include "passes/FunctionLowering.hpp"

namespace popc {

namespace lowering {

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

} // namespace lowering

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
    lowering::FunctionLowering lowering(*f, *functions[f], globals, functions, files, out, diags);
    ok &= lowering.run();
  }
  return ok;
}

} // namespace popc
