// The IPU builtins of Graphcore's Clang that codelets call. They are compiler builtins there, so
// popc makes this header part of every codelet (`-include`): a codelet calls them without an
// include, as it does for Graphcore's popc. Those the simulated tile can compute are defined here
// or lowered by popc (__builtin_ipu_get of the worker status register is the `wid` instruction);
// the others are declared so that a call is a popc error at its line naming the builtin, instead
// of an unknown identifier. A forced include must not bring other names into every codelet, so
// nothing is included and the vector types are spelled here under reserved names (the same types
// as ipudef.h's float2, half2 and half4: Clang identifies vector types by element and length).
#ifndef _POPC_BUILTINS_H
#define _POPC_BUILTINS_H

typedef float __popc_float2 __attribute__((ext_vector_type(2)));
typedef __fp16 __popc_half2 __attribute__((ext_vector_type(2)));
typedef __fp16 __popc_half4 __attribute__((ext_vector_type(4)));

#ifdef __cplusplus
extern "C" {
#define _POPC_IPU_INLINE inline
#else
#define _POPC_IPU_INLINE static inline
#endif

// Reads a control/status register; popc supports CSR_W_WSR__INDEX (1, poplar/TileConstants.hpp:
// the worker id field).
unsigned __builtin_ipu_get(unsigned csr);

_POPC_IPU_INLINE int __builtin_ipu_isnan(float x) { return __builtin_isnan(x); }
_POPC_IPU_INLINE int __builtin_ipu_isinf(float x) { return __builtin_isinf(x); }
_POPC_IPU_INLINE int __builtin_ipu_isfinite(float x) { return __builtin_isfinite(x); }
_POPC_IPU_INLINE float __builtin_ipu_exp2(float x) { return __builtin_exp2f(x); }
_POPC_IPU_INLINE float __builtin_ipu_max(float a, float b) { return __builtin_fmaxf(a, b); }
_POPC_IPU_INLINE float __builtin_ipu_min(float a, float b) { return __builtin_fminf(a, b); }
_POPC_IPU_INLINE float __builtin_ipu_f32sigm(float x) { return 1.0f / (1.0f + __builtin_expf(-x)); }
// Float compare and bit operations on float bit patterns, as the f32cmplt / andc do.
_POPC_IPU_INLINE float __builtin_ipu_cmplt(float a, float b) {
  return __builtin_bit_cast(float, a < b ? 0xffffffffu : 0u);
}
_POPC_IPU_INLINE float __builtin_ipu_andc_f32(float a, float b) {
  return __builtin_bit_cast(float,
                            __builtin_bit_cast(unsigned, a) & ~__builtin_bit_cast(unsigned, b));
}

// The tile's random generator: one xoroshiro128+ per context (the model PopLibs gives of the
// IPU's generator), kept in the codelet object's data on each tile, so that the sequence carries
// over from one vertex run to the next. Its seeds are fixed per context (context c's two state
// words are the splitmix64 outputs 2c and 2c+1 from 0x5eed1c0de): the simulated tile has no seed
// registers to write (__builtin_ipu_put), so every tile draws the same sequence.
_POPC_IPU_INLINE unsigned long long __builtin_ipu_urand64(void) {
  static unsigned long long state[8][2] = {{0xa6930e8db4bd1e5dull, 0xabaa973dd447f277ull},
                                           {0x796d73556fd9f467ull, 0xc2964530c01f8f22ull},
                                           {0xc39786ec575e2044ull, 0xc6eafcf0cd897c3eull},
                                           {0xd6fb938aad325bafull, 0x482375af4b64a980ull},
                                           {0x62e86ef5a7d36f7aull, 0x88bad8081e7ecc74ull},
                                           {0x88854ff33a26b9ebull, 0x6e85dbfb3fdce55full},
                                           {0xc3e2ba8f42f33c1aull, 0xff91116eacf47c55ull},
                                           {0xf0b2bf3cfaf229b2ull, 0xc0609ad659c2163bull}};
  unsigned long long *s = state[__builtin_ipu_get(1) & 7];
  unsigned long long s0 = s[0], s1 = s[1], result = s0 + s1;
  s1 ^= s0;
  s[0] = ((s0 << 55) | (s0 >> 9)) ^ s1 ^ (s1 << 14);
  s[1] = (s1 << 36) | (s1 >> 28);
  return result;
}
_POPC_IPU_INLINE unsigned __builtin_ipu_urand32(void) { return (unsigned)__builtin_ipu_urand64(); }
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
// counters and tile identity, pointer packing, float random numbers.
void __builtin_ipu_put(unsigned value, unsigned csr);
void __builtin_ipu_uput(unsigned value, unsigned csr);
unsigned __builtin_ipu_uget(unsigned csr);
void __builtin_ipu_ld64putcs(unsigned index);
void __builtin_ipu_ld128putcs(unsigned index);
unsigned __builtin_ipu_tapack(const void *a, const void *b, void *c);
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
_POPC_IPU_LANEWISE(__builtin_ipu_max, __popc_float2, 2)
_POPC_IPU_LANEWISE(__builtin_ipu_min, __popc_float2, 2)
_POPC_IPU_LANEWISE(__builtin_ipu_max, __popc_half2, 2)
_POPC_IPU_LANEWISE(__builtin_ipu_min, __popc_half2, 2)
_POPC_IPU_LANEWISE(__builtin_ipu_max, __popc_half4, 4)
_POPC_IPU_LANEWISE(__builtin_ipu_min, __popc_half4, 4)
#undef _POPC_IPU_LANEWISE
#endif

#endif
