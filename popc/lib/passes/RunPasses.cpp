// The analysis-manager set-up shared by popc's IR pipelines (Optimize, PrepareForLowering).
#include "passes/RunPasses.hpp"

#include "llvm/IR/Module.h"

namespace popc {

void runModulePasses(llvm::Module &m, llvm::PassBuilder &pb, llvm::ModulePassManager mpm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  mpm.run(m, mam);
}

} // namespace popc
