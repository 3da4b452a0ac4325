// The fast loop (block-charged, fused, computed goto where the compiler has it) with every load
// and store checked against the vertex's memory map (debug.checkMemoryAccess, MemCheck.hpp):
// where memory-checked runs start; it hands a run whose budget is about to run out to the
// exact memory-checked loop.
#include "interp/LoopState.hpp"
#include "interp/MemCheck.hpp"

#define POPLAR_INTERP_FN executeMemCheckedFast
#if defined(__GNUC__)
#define POPLAR_INTERP_GOTO 1
#else
#define POPLAR_INTERP_GOTO 0
#endif
#define POPLAR_INTERP_CHECKED 0
#define POPLAR_INTERP_MEMCHECK 1
#include "interp/InterpreterLoop.inc"
