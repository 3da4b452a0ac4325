// The short vector types of codelets (Poplar's poplar/VectorTypes.hpp): float2, half4, int2,
// short2, ... of 64 bits or less are the register-pair operands of the f32v2 / f16v4
// instructions. Codelet-only: they are defined by popc's ipudef.h (Clang ext_vector_type), which
// the host compiler does not have.
#ifndef poplar_VectorTypes_hpp
#define poplar_VectorTypes_hpp

#ifdef __POPC__
#include <ipudef.h>
#endif

#endif
