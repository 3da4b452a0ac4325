// The passes over machine IR after instruction selection (order in Pipeline.cpp).
#ifndef popc_passes_MachinePasses_hpp
#define popc_passes_MachinePasses_hpp

#include "MIR.hpp"

namespace popc {

/// Deletes instructions without side effects whose results are never read (address
/// arithmetic that loads and stores folded, unused arguments). Precondition: virtual registers.
void removeDeadCode(mir::Function &function);

/// Linear-scan register allocation (Poletto & Sarkar) over one conservative live interval per
/// virtual register. Values live across a call get callee-saved registers (call clobbers are
/// fixed ranges of r1..r31); when registers run out, the interval ending last is spilled to a
/// frame slot and reloaded through r9..r11 at each use. Removes copies that became `mov rX, rX`.
/// Precondition: every block ends in br, ret or trap (lowerFunctions). Postcondition: only
/// physical registers remain.
void allocateRegisters(mir::Function &function);

/// Gives every frame slot an sp offset, adds the prologue (spadd, saves of the callee-saved
/// registers used and of lr if the function calls) and an epilogue before each ret, and
/// resolves slot-relative immediates. Precondition: allocateRegisters ran.
void layoutFrame(mir::Function &function);

/// Drops branches to the next block and turns `brnz c, X; br Y` with X next into `brz c, Y`.
/// Precondition: layoutFrame ran (no more code is added after this).
void layoutBlocks(mir::Function &function);

} // namespace popc

#endif
