// Loop helpers for codelets (Poplar's poplar/Loops.hpp): rptsize_t is the type of a loop count
// meant for the hardware repeat instruction (`rpt`, which popc forms from counted loops).
#ifndef poplar_Loops_hpp
#define poplar_Loops_hpp

namespace poplar {
#if defined(__POPC__) || defined(__IPU__)
typedef unsigned short rptsize_t; // __IPU_REPEAT_COUNT_SIZE__ is 16 bits on ipu2 and ipu21
#endif
} // namespace poplar

#if defined(__POPC__) || defined(__IPU__)
using poplar::rptsize_t;
#endif

#endif
