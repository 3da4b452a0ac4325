// The passes over machine IR after instruction selection (order in Pipeline.cpp).
#ifndef popc_passes_MachinePasses_hpp
#define popc_passes_MachinePasses_hpp

#include "MIR.hpp"

namespace popc {

/// Deletes instructions without side effects whose results are never read (address
/// arithmetic that loads and stores folded, unused arguments). Precondition: virtual registers.
void removeDeadCode(mir::Function &function);

/// Turns a load or store through [p+0] followed in its block by `addi q, p, k` (with no other
/// access to p in between, and p dead after it) into the post-increment form [p+=k], and the
/// addi into `mov q, p`. Precondition: virtual registers; every block ends in br, ret or trap.
void formPostIncrement(mir::Function &function);

/// Aggressive copy coalescing (Chaitin): for each `mov a, b` between virtual registers that do
/// not interfere, renames b to a and deletes the copy. Removes most copies of phi elimination
/// and formPostIncrement. Precondition: virtual registers; every block ends in br, ret or trap.
void coalesceCopies(mir::Function &function);

/// Linear-scan register allocation (Poletto & Sarkar) over one conservative live interval per
/// virtual register. Values live across a call get callee-saved registers (call clobbers are
/// fixed ranges of r1..r31); when registers run out, the interval ending last is spilled to a
/// frame slot and reloaded through r9..r11 at each use. Removes copies that became `mov rX, rX`.
/// Precondition: every block ends in br, ret or trap (lowerFunctions). Postcondition: only
/// physical registers remain.
void allocateRegisters(mir::Function &function);

/// Gives every frame slot an sp offset, adds the prologue (spadd, saves of the callee-saved
/// registers used unless it is a vertex entry, and of lr if the function calls) and an epilogue
/// before each ret, and resolves slot-relative immediates. Precondition: allocateRegisters ran.
void layoutFrame(mir::Function &function);

/// Threads branches through blocks that hold only `br X`, deletes the blocks no branch reaches,
/// drops branches to the next block and turns `brnz c, X; br Y` with X next into `brz c, Y`.
/// Precondition: layoutFrame ran (no more code is added after this, except formRepeatLoops).
void layoutBlocks(mir::Function &function);

/// Turns a block B that ends in `brnzdec r, B` (optionally followed by a br out), is entered
/// only by falling through and has no control flow and no access to r in its body, into a
/// zero-overhead loop: `addi r, r, 1; rpt r, len` at the end of the block before B. r must be
/// dead after the loop (brnzdec leaves it 0, rpt leaves it at the trip count), which holds for
/// the counters countLoops makes. Precondition: layoutBlocks ran.
void formRepeatLoops(mir::Function &function);

} // namespace popc

#endif
