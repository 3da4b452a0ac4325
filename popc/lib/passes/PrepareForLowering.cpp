// The IR shape the lowering expects: switches lowered to branches, critical edges split.
#include "passes/IRPasses.hpp"
#include "passes/RunPasses.hpp"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/BreakCriticalEdges.h"
#include "llvm/Transforms/Utils/LowerSwitch.h"

namespace popc {

void prepareForLowering(llvm::Module &m) {
  llvm::PassBuilder pb;
  llvm::FunctionPassManager fpm;
  fpm.addPass(llvm::LowerSwitchPass());
  fpm.addPass(llvm::BreakCriticalEdgesPass());
  llvm::ModulePassManager mpm;
  mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
  runModulePasses(m, pb, std::move(mpm));
}

} // namespace popc
