// The interpreter loop with computed-goto (labels-as-values) dispatch: one indirect jump per
// handler.
#include "interp/Ops.hpp"

#if defined(__GNUC__)
#define POPLAR_INTERP_FN executeGoto
#define POPLAR_INTERP_GOTO 1
#include "interp/InterpreterLoop.inc"
#endif
