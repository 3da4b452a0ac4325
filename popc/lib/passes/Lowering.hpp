// LLVM IR -> machine IR: the data section for globals, and instruction selection per function.
#ifndef popc_passes_Lowering_hpp
#define popc_passes_Lowering_hpp

#include "MIR.hpp"

#include <map>

namespace llvm {
class GlobalVariable;
class Module;
} // namespace llvm

namespace popc {

class SourceDiagnostics;

/// Byte offset of each global in the data section (its address is gp + offset).
using GlobalOffsets = std::map<const llvm::GlobalVariable *, std::uint32_t>;

/// Places every global variable of `module` in out.data with its initial value; pointers to
/// other globals become data relocations. Reports globals it cannot place.
bool layoutGlobals(const llvm::Module &module, mir::Module &out, GlobalOffsets &offsets,
                   SourceDiagnostics &diags);

/// Selects tile instructions for every defined function, over virtual registers: arguments
/// arrive in r1..r8 and the result leaves in r1; phis become copies (at the top of a block
/// with one predecessor, else at the end of each predecessor). Static allocas become frame
/// slots. Preconditions: checkSupported passed, no switch and no critical edges
/// (optimizeModule), layoutGlobals ran. Reports what it cannot lower.
bool lowerFunctions(const llvm::Module &module, const GlobalOffsets &offsets, mir::Module &out,
                    SourceDiagnostics &diags);

} // namespace popc

#endif
