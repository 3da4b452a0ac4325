// The passes over LLVM IR that run before lowering (each in its own .cpp; order in Pipeline.cpp).
#ifndef popc_passes_IRPasses_hpp
#define popc_passes_IRPasses_hpp

#include "VertexModel.hpp"

#include <vector>

namespace llvm {
class Module;
}

namespace popc {

class SourceDiagnostics;

/// Adds `i32 entrySymbol(v)(i8* state, i32 workerId)` for each vertex: it calls compute() on the
/// state block and returns 1 for success (void compute()) or compute()'s result. Makes every
/// other definition internal so the optimiser may inline and delete it.
/// Precondition: each vertex's computeSymbol is defined in `module`.
void addEntryPoints(llvm::Module &module, const std::vector<VertexInfo> &vertices);

/// Runs LLVM's optimisation pipeline for -O`level` (no vectorisation: the lowering handles
/// scalars), then splits critical edges so phi copies have a block of their own.
void optimizeModule(llvm::Module &module, unsigned level);

/// Reports everything the tile cannot run that is visible in optimised IR: calls to functions
/// with no definition and no ISA equivalent, indirect calls, recursion, 64-bit floats,
/// dynamic stack allocation. Returns false if it reported an error.
bool checkSupported(llvm::Module &module, SourceDiagnostics &diags);

} // namespace popc

#endif
