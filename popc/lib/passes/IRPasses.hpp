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
/// scalars).
void optimizeModule(llvm::Module &module, unsigned level);

/// Gives every address of an innermost loop that steps by a constant each iteration (a[i],
/// a[2*i+1], ...) a pointer phi of its own, advanced by a GEP at the end of the latch;
/// addresses a constant apart share one pointer. Without it the lowering would multiply and
/// add per access; with it the pointer step folds into post-increment loads and stores.
/// Precondition: optimizeModule ran (loops in simplified form, induction variables canonical).
void stridePointers(llvm::Module &module);

/// Gives every innermost loop whose latch is its only exit and whose trip count scalar
/// evolution can compute a down-counter phi `c` (the backedge-taken count at entry) and makes
/// the latch branch `br (icmp ne c, 0), header, exit` with `c - 1` flowing back: the pattern
/// that the lowering turns into one `brnzdec`. The old exit test is deleted if now dead.
/// Precondition: optimizeModule ran; run before prepareForLowering.
void countLoops(llvm::Module &module);

/// Double precision in software: every double value becomes its i64 bits, and double
/// arithmetic, compares, conversions, loads, stores, phis, selects, fabs, copysign and fmuladd
/// become calls into popc/runtime/Double.cpp (`__popc_dadd`, ...) or integer operations; printf
/// receives a double rounded to float. What else reads a double (a call argument, a math
/// function) keeps it, for CheckSupported to report. Returns whether the runtime is needed.
/// Run after optimizeModule (the runtime's calls are not inlined).
bool softenDoubles(llvm::Module &module);

/// Keeps the vectors the ISA computes on whole: loads, stores and phis of 32- and 64-bit vectors
/// become i32 and i64 ones (an i64 is a register pair in the lowering), and f32v2 / f16v4
/// arithmetic (add, sub, mul, fmuladd) and the half2 <-> float2 conversions become calls to
/// `__popc_vector_<mnemonic>` (MathFunctions.hpp) on the vectors' bits, with bitcasts where
/// other code reads or builds the vectors. Run before prepareForLowering, whose scalarizer
/// splits every vector left.
void selectVectorInstructions(llvm::Module &module);

/// Establishes the lowering's preconditions: no switch instructions and no critical edges (a
/// block ending in a conditional branch never jumps straight to a block with phis).
void prepareForLowering(llvm::Module &module);

/// In each loop with a preheader, replaces the float and 64-bit constant operands of its own
/// blocks' arithmetic, compares, selects, stores and vector operations by one `freeze` of the
/// constant in the preheader, so the lowering builds each once instead of on every iteration.
/// Run after prepareForLowering.
void hoistLoopConstants(llvm::Module &module);

/// Reports everything the tile cannot run that is visible in optimised IR: calls to functions
/// with no definition and no ISA equivalent, indirect calls, recursion if not allowed, double
/// precision the software does not cover, dynamic stack allocation. Returns false if it
/// reported an error.
/// Recursion is allowed when `recursionDepth` is not 0 (emitCode sizes the stacks for it).
bool checkSupported(llvm::Module &module, SourceDiagnostics &diags, unsigned recursionDepth);

} // namespace popc

#endif
