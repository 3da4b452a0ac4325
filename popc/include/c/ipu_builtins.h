// The IPU builtins of Graphcore's Clang (ipu_builtins.h) that codelets call. Those the simulated
// tile can compute are defined here or lowered by popc (__builtin_ipu_get of the worker status
// register is the `wid` instruction); the others are declared so that a call is a popc error at
// its line naming the builtin, instead of an unknown identifier.
#ifndef _POPC_IPU_BUILTINS_H
#define _POPC_IPU_BUILTINS_H

#include <ipudef.h>
#include <math.h>
#include <poplar/TileConstants.hpp>

#ifdef __cplusplus
extern "C" {
#define _POPC_IPU_INLINE inline
#else
#define _POPC_IPU_INLINE static inline
#endif

// Reads a control/status register; popc supports CSR_W_WSR__INDEX (the worker id field).
unsigned __builtin_ipu_get(unsigned csr);

_POPC_IPU_INLINE int __builtin_ipu_isnan(float x) { return __builtin_isnan(x); }
_POPC_IPU_INLINE int __builtin_ipu_isinf(float x) { return __builtin_isinf(x); }
_POPC_IPU_INLINE int __builtin_ipu_isfinite(float x) { return __builtin_isfinite(x); }
_POPC_IPU_INLINE float __builtin_ipu_exp2(float x) { return exp2f(x); }
_POPC_IPU_INLINE float __builtin_ipu_max(float a, float b) { return fmaxf(a, b); }
_POPC_IPU_INLINE float __builtin_ipu_min(float a, float b) { return fminf(a, b); }
_POPC_IPU_INLINE float __builtin_ipu_f32sigm(float x) { return 1.0f / (1.0f + expf(-x)); }
// Float compare and bit operations on float bit patterns, as the f32cmplt / andc do.
_POPC_IPU_INLINE float __builtin_ipu_cmplt(float a, float b) {
  return __builtin_bit_cast(float, a < b ? 0xffffffffu : 0u);
}
_POPC_IPU_INLINE float __builtin_ipu_andc_f32(float a, float b) {
  return __builtin_bit_cast(float,
                            __builtin_bit_cast(unsigned, a) & ~__builtin_bit_cast(unsigned, b));
}
#undef _POPC_IPU_INLINE

// The simulated tile's AMP in block form (one instruction each; docs/isa.md, group AmpPass).
// A pass: set the position strides, load a coefficient block W[o][i] (o < oc, i < ic, stored
// input-channel major with rows `stride` elements apart: shape = oc | ic << 8 | stride << 16,
// so a [K][N] matrix's rows load as they are), then run it over `n` field
// positions: out[p][o] (+)= sum_i W[o][i] * in[p][i]. Bit 31 of `ctl` zeroes the outputs
// first (the first input-channel group); the other bits are n. f16 data is passed as void *.
unsigned __builtin_ipu_amp_config(unsigned inStrideBytes, unsigned outStrideBytes);
unsigned __builtin_ipu_amp_load_f32(const float *weights, unsigned shape);
unsigned __builtin_ipu_amp_load_f16(const void *weights, unsigned shape);
unsigned __builtin_ipu_amp_f32(const float *in, float *out, unsigned ctl);
unsigned __builtin_ipu_amp_f16(const void *in, float *out, unsigned ctl);
unsigned __builtin_ipu_amp_f16h(const void *in, void *out, unsigned ctl);

// No equivalent on the simulated tile: AMP coefficient loads, CSR writes, the PRNG, cycle
// counters and tile identity, pointer packing.
void __builtin_ipu_put(unsigned value, unsigned csr);
void __builtin_ipu_uput(unsigned value, unsigned csr);
unsigned __builtin_ipu_uget(unsigned csr);
void __builtin_ipu_ld64putcs(unsigned index);
void __builtin_ipu_ld128putcs(unsigned index);
unsigned __builtin_ipu_tapack(const void *a, const void *b, void *c);
unsigned __builtin_ipu_urand32(void);
float __builtin_ipu_urand_f32(void);
unsigned __builtin_ipu_get_scount_l(void);
unsigned __builtin_ipu_get_scount_u(void);
unsigned __builtin_ipu_get_tile_id(void);
void *__builtin_ipu_get_vertex_base(void);

#ifdef __cplusplus
}

// The lane-by-lane forms Graphcore's header adds for the vector types (f32v2max, f16v4min, ...).
#define _POPC_IPU_LANEWISE(name, V, N)                                                             \
  __attribute__((always_inline)) inline V name(V a, V b) {                                         \
    V r;                                                                                           \
    for (int i = 0; i < N; ++i)                                                                    \
      r[i] = name(float(a[i]), float(b[i]));                                                       \
    return r;                                                                                      \
  }
_POPC_IPU_LANEWISE(__builtin_ipu_max, float2, 2)
_POPC_IPU_LANEWISE(__builtin_ipu_min, float2, 2)
_POPC_IPU_LANEWISE(__builtin_ipu_max, half2, 2)
_POPC_IPU_LANEWISE(__builtin_ipu_min, half2, 2)
_POPC_IPU_LANEWISE(__builtin_ipu_max, half4, 4)
_POPC_IPU_LANEWISE(__builtin_ipu_min, half4, 4)
#undef _POPC_IPU_LANEWISE
#endif

#endif
