// Runs a loop transform over every innermost loop of a module, with the analyses it needs.
#ifndef popc_passes_InnermostLoops_hpp
#define popc_passes_InnermostLoops_hpp

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class DataLayout;
class Loop;
class Module;
class ScalarEvolution;
} // namespace llvm

namespace popc {

/// Calls `transform` on each innermost loop of each defined function (preorder), with fresh
/// dominator, loop and scalar-evolution analyses per function. `transform` returns whether it
/// changed the loop; phis left dead by a changed function are then deleted.
void transformInnermostLoops(
    llvm::Module &m,
    llvm::function_ref<bool(llvm::Loop &, llvm::ScalarEvolution &, const llvm::DataLayout &)>
        transform);

} // namespace popc

#endif
