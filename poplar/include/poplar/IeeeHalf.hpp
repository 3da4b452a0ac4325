// poplar::IeeeHalf, the host-side half value (declared with the half conversions in
// poplar/HalfFloat.hpp; Poplar also offers it under this name).
#ifndef poplar_IeeeHalf_hpp
#define poplar_IeeeHalf_hpp

#include <poplar/HalfFloat.hpp>

#endif
