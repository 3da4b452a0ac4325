// The exact interpreter loop: one plain instruction per dispatch, budget checked on each; it
// finishes a run whose next block or rpt does not fit in the budget left (LoopState.hpp).
#include "interp/LoopState.hpp"

#define POPLAR_INTERP_FN executeChecked
#define POPLAR_INTERP_GOTO 0
#define POPLAR_INTERP_CHECKED 1
#include "interp/InterpreterLoop.inc"
