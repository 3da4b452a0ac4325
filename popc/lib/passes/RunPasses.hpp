// Runs a module pass pipeline with the analysis managers the new pass manager needs.
#ifndef popc_passes_RunPasses_hpp
#define popc_passes_RunPasses_hpp

#include "llvm/Passes/PassBuilder.h"

namespace popc {

/// Registers `pb`'s analyses in fresh managers, cross-registers their proxies and runs `mpm`
/// over `m`.
void runModulePasses(llvm::Module &m, llvm::PassBuilder &pb, llvm::ModulePassManager mpm);

} // namespace popc

#endif
