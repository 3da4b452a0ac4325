// The short vector types of codelets (Poplar's poplar/VectorTypes.hpp): Clang ext_vector_type
// vectors of 64 bits or less, the register-pair operands of the f32v2 / f16v4 instructions.
// Codelet-only: the host compiler has no ext_vector_type.
#ifndef poplar_VectorTypes_hpp
#define poplar_VectorTypes_hpp

#ifdef __POPC__
#include <poplar/HalfFloat.hpp>

typedef float float2 __attribute__((ext_vector_type(2)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef half half2 __attribute__((ext_vector_type(2)));
typedef half half4 __attribute__((ext_vector_type(4)));
typedef int int2 __attribute__((ext_vector_type(2)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef unsigned uint2 __attribute__((ext_vector_type(2)));
typedef unsigned uint4 __attribute__((ext_vector_type(4)));
typedef short short2 __attribute__((ext_vector_type(2)));
typedef short short4 __attribute__((ext_vector_type(4)));
typedef unsigned short ushort2 __attribute__((ext_vector_type(2)));
typedef unsigned short ushort4 __attribute__((ext_vector_type(4)));
typedef char char2 __attribute__((ext_vector_type(2)));
typedef char char4 __attribute__((ext_vector_type(4)));
typedef unsigned char uchar2 __attribute__((ext_vector_type(2)));
typedef unsigned char uchar4 __attribute__((ext_vector_type(4)));
#endif

#endif
