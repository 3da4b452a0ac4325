// Register liveness over machine IR, shared by the machine passes that run before allocation.
#ifndef popc_passes_Liveness_hpp
#define popc_passes_Liveness_hpp

#include "MIR.hpp"

#include "llvm/ADT/BitVector.h"

#include <vector>

namespace popc {

/// The virtual registers live on exit from each block (indexed like function.blocks), by
/// iterating the backward dataflow equations to a fixed point. Physical registers are not
/// tracked. Precondition: every block ends in br, ret or trap, so a block's successors are
/// exactly the targets of its branches (true until layoutBlocks).
std::vector<llvm::BitVector> virtualLiveOut(const mir::Function &function);

} // namespace popc

#endif
