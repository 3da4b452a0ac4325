// Loop helpers for codelets (Poplar's poplar/Loops.hpp): rptsize_t is the type of a loop count
// meant for the hardware repeat instruction (`rpt`, which popc forms from counted loops).
#ifndef poplar_Loops_hpp
#define poplar_Loops_hpp

#ifdef __POPC__
#include <ipudef.h> // ::rptsize_t

namespace poplar {
using ::rptsize_t;
} // namespace poplar
#endif

#endif
