// Machine IR -> encoded code, line table and symbols of a .gp.
#ifndef popc_passes_EmitCode_hpp
#define popc_passes_EmitCode_hpp

#include "MIR.hpp"

namespace popc {

class SourceDiagnostics;

/// Places the functions one after another, resolves branch and call displacements, encodes
/// every instruction (checking it with isa::validate), and fills the code, symbols, files and
/// line table of `out`. Sets each function's entryPc and stackSize (its frame plus its deepest
/// callee's; recursive functions reserve `recursionDepth` levels of every frame in their cycle,
/// and deeper recursion traps as a stack overflow at run time). Preconditions: layoutBlocks
/// ran on every function. Returns false after reporting an instruction the ISA rejects.
bool emitCode(mir::Module &module, poplar::gp::GpFile &out, SourceDiagnostics &diags,
              unsigned recursionDepth);

} // namespace popc

#endif
