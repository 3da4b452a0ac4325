// The IR shape the lowering expects: 64-bit division as loops, vectors split into their
// elements, switches lowered to branches, critical edges split.
#include "passes/IRPasses.hpp"
#include "passes/RunPasses.hpp"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Scalar/DCE.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"
#include "llvm/Transforms/Utils/BreakCriticalEdges.h"
#include "llvm/Transforms/Utils/IntegerDivision.h"
#include "llvm/Transforms/Utils/LowerSwitch.h"

namespace popc {

namespace {

/// LLVM 14's scalarizer leaves vector loads and stores alone unless its command-line option
/// says otherwise; popc wants every vector value split (the lowering is scalar).
void scalarizeLoadsAndStores() {
  auto &options = llvm::cl::getRegisteredOptions();
  if (auto *o = options.lookup("scalarize-load-store"))
    static_cast<llvm::cl::opt<bool> *>(o)->setValue(true);
}

/// The IPU has no 64-bit divide (nor a 32-bit one): i64 division and remainder become LLVM's
/// shift-and-subtract loops, which the lowering handles as i64 arithmetic.
void expandWideDivision(llvm::Module &m) {
  std::vector<llvm::BinaryOperator *> divisions;
  for (llvm::Function &f : m)
    for (llvm::Instruction &i : llvm::instructions(f))
      if (auto *b = llvm::dyn_cast<llvm::BinaryOperator>(&i))
        if (b->getType()->isIntegerTy(64) && (b->getOpcode() == llvm::Instruction::UDiv ||
                                              b->getOpcode() == llvm::Instruction::SDiv ||
                                              b->getOpcode() == llvm::Instruction::URem ||
                                              b->getOpcode() == llvm::Instruction::SRem))
          divisions.push_back(b);
  for (llvm::BinaryOperator *b : divisions) {
    bool remainder =
        b->getOpcode() == llvm::Instruction::URem || b->getOpcode() == llvm::Instruction::SRem;
    if (remainder)
      llvm::expandRemainder(b);
    else
      llvm::expandDivision(b);
  }
}

} // namespace

void prepareForLowering(llvm::Module &m) {
  expandWideDivision(m);
  scalarizeLoadsAndStores();
  llvm::PassBuilder pb;
  llvm::FunctionPassManager fpm;
  // float2, half4, ... (ext_vector_type): element-wise scalar code; what cannot be split (a
  // vector argument of a call that was not inlined) stays for CheckSupported to report.
  fpm.addPass(llvm::ScalarizerPass());
  fpm.addPass(llvm::DCEPass());
  fpm.addPass(llvm::LowerSwitchPass());
  fpm.addPass(llvm::BreakCriticalEdgesPass());
  llvm::ModulePassManager mpm;
  mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
  runModulePasses(m, pb, std::move(mpm));
}

} // namespace popc
