// The interpreter loop with portable switch dispatch, kept built and tested beside computed goto.
#include "interp/Ops.hpp"

#define POPLAR_INTERP_FN executeSwitch
#define POPLAR_INTERP_GOTO 0
#include "interp/InterpreterLoop.inc"
