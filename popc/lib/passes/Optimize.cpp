// LLVM's standard optimisation pipeline, tuned for a scalar in-order tile.
#include "passes/IRPasses.hpp"
#include "passes/RunPasses.hpp"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"

namespace popc {

void optimizeModule(llvm::Module &m, unsigned level) {
  llvm::PipelineTuningOptions tuning;
  // The lowering is scalar; IR vectors would only be split up again.
  tuning.LoopVectorization = false;
  tuning.SLPVectorization = false;
  llvm::PassBuilder pb(nullptr, tuning);

  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1, llvm::OptimizationLevel::O2,
      llvm::OptimizationLevel::O3};
  llvm::ModulePassManager mpm = level == 0 ? pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
                                           : pb.buildPerModuleDefaultPipeline(levels[level]);
  // Even at -O0, fold what is written in double but means float: libc++'s float round(float)
  // is __builtin_round (a double call between conversions) and half literals are long double
  // constants; the tile has no double.
  if (level == 0)
    mpm.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::InstCombinePass()));
  runModulePasses(m, pb, std::move(mpm));
}

} // namespace popc
