/* The IPU's native types for codelets, under the names of Graphcore's ipudef.h: half, the
   short vector types (Clang ext_vector_type, so that swizzles such as v.xy work too) and, in
   C++, rptsize_t. The SDK's device headers (VectorTypes.hpp, Loops.hpp, ipu_builtins.h,
   ipu_vector_math, ipu_memory_intrinsics) include it, as codelets written for Graphcore's
   compiler expect float2 or rptsize_t after including any of them. */
#ifndef _POPC_IPUDEF_H
#define _POPC_IPUDEF_H

typedef __fp16 half;

#define _POPC_VECTOR(T, name, n) typedef T name __attribute__((ext_vector_type(n)))
_POPC_VECTOR(half, half2, 2);
_POPC_VECTOR(half, half4, 4);
_POPC_VECTOR(half, half8, 8);
_POPC_VECTOR(float, float2, 2);
_POPC_VECTOR(float, float4, 4);
_POPC_VECTOR(char, char2, 2);
_POPC_VECTOR(char, char4, 4);
_POPC_VECTOR(unsigned char, uchar2, 2);
_POPC_VECTOR(unsigned char, uchar4, 4);
_POPC_VECTOR(short, short2, 2);
_POPC_VECTOR(short, short4, 4);
_POPC_VECTOR(unsigned short, ushort2, 2);
_POPC_VECTOR(unsigned short, ushort4, 4);
_POPC_VECTOR(int, int2, 2);
_POPC_VECTOR(int, int4, 4);
_POPC_VECTOR(unsigned, uint2, 2);
_POPC_VECTOR(unsigned, uint4, 4);
_POPC_VECTOR(long, long2, 2);
_POPC_VECTOR(long, long4, 4);
_POPC_VECTOR(long long, longlong2, 2);
_POPC_VECTOR(long long, longlong4, 4);
#undef _POPC_VECTOR

#ifdef __cplusplus
/* A loop count meant for the repeat instruction (`rpt`, which popc forms from counted loops):
   __IPU_REPEAT_COUNT_SIZE__ is 16 bits on ipu2 and ipu21. */
typedef unsigned short rptsize_t;
#endif

#endif
