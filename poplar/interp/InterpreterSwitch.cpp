// The fast interpreter loop with portable switch dispatch, kept built and tested beside goto.
#include "interp/LoopState.hpp"

#define POPLAR_INTERP_FN executeSwitch
#define POPLAR_INTERP_GOTO 0
#define POPLAR_INTERP_CHECKED 0
#include "interp/InterpreterLoop.inc"
