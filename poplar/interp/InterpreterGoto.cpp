// The fast interpreter loop with computed-goto (labels-as-values) dispatch: one indirect jump
// per handler.
#include "interp/LoopState.hpp"

#if defined(__GNUC__)
#define POPLAR_INTERP_FN executeGoto
#define POPLAR_INTERP_GOTO 1
#define POPLAR_INTERP_CHECKED 0
#include "interp/InterpreterLoop.inc"
#endif
