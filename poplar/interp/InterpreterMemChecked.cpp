// The exact loop with every load and store checked against the vertex's memory map
// (debug.checkMemoryAccess, MemCheck.hpp): finishes memory-checked runs whose budget is about
// to run out.
#include "interp/LoopState.hpp"
#include "interp/MemCheck.hpp"

#define POPLAR_INTERP_FN executeMemChecked
#define POPLAR_INTERP_GOTO 0
#define POPLAR_INTERP_CHECKED 1
#define POPLAR_INTERP_MEMCHECK 1
#include "interp/InterpreterLoop.inc"
