// Vector-type kernels shared by the VectorKernels codelet and its host test (the differential
// test of popc's f32v2 / f16v4 selection, lane accesses and conversions: the same source
// compiled by popc for the tile and by the host compiler, compared bit for bit). One
// floating-point operation per statement, so that neither compiler may fuse or keep extra
// precision differently.
#pragma once

#ifdef __POPC__
#include <ipudef.h> // float2, half2, half4, short4 as Clang ext_vector_type
#else
typedef _Float16 half;
typedef float float2 __attribute__((vector_size(8)));
typedef half half2 __attribute__((vector_size(4)));
typedef half half4 __attribute__((vector_size(8)));
typedef short short4 __attribute__((vector_size(8)));
#endif

namespace vectork {

/// Per pair of a, b, c (n even): a + b, a - b, a * b, (a * b) + c, a / b, -a.
inline void float2Arithmetic(const float *a, const float *b, const float *c, float *out,
                             unsigned n) {
  const float2 *a2 = reinterpret_cast<const float2 *>(a);
  const float2 *b2 = reinterpret_cast<const float2 *>(b);
  const float2 *c2 = reinterpret_cast<const float2 *>(c);
  float2 *o2 = reinterpret_cast<float2 *>(out);
  for (unsigned i = 0; i < n / 2; ++i) {
    float2 x = a2[i], y = b2[i];
    o2[6 * i] = x + y;
    o2[6 * i + 1] = x - y;
    float2 p = x * y;
    o2[6 * i + 2] = p;
    o2[6 * i + 3] = p + c2[i];
    o2[6 * i + 4] = x / y;
    o2[6 * i + 5] = -x;
  }
}

/// Per four halves of a, b, c (n a multiple of 4): a + b, a - b, a * b, (a * b) + c, -a.
inline void half4Arithmetic(const half *a, const half *b, const half *c, half *out, unsigned n) {
  const half4 *a4 = reinterpret_cast<const half4 *>(a);
  const half4 *b4 = reinterpret_cast<const half4 *>(b);
  const half4 *c4 = reinterpret_cast<const half4 *>(c);
  half4 *o4 = reinterpret_cast<half4 *>(out);
  for (unsigned i = 0; i < n / 4; ++i) {
    half4 x = a4[i], y = b4[i];
    o4[5 * i] = x + y;
    o4[5 * i + 1] = x - y;
    half4 p = x * y;
    o4[5 * i + 2] = p;
    o4[5 * i + 3] = p + c4[i];
    o4[5 * i + 4] = -x;
  }
}

/// Dot products through vector accumulators (a loop-carried float2 and half4): out[0] the
/// float2 one over n floats, out[1] the half4 one over n halves (summed in half).
inline void dots(const float *a, const float *b, const half *ha, const half *hb, float *out,
                 unsigned n) {
  float2 acc = {0.0f, 0.0f};
  for (unsigned i = 0; i < n / 2; ++i) {
    float2 p = reinterpret_cast<const float2 *>(a)[i] * reinterpret_cast<const float2 *>(b)[i];
    acc = acc + p;
  }
  out[0] = acc[0] + acc[1];
  half4 hacc = {half(0.0f), half(0.0f), half(0.0f), half(0.0f)};
  for (unsigned i = 0; i < n / 4; ++i) {
    half4 p = reinterpret_cast<const half4 *>(ha)[i] * reinterpret_cast<const half4 *>(hb)[i];
    hacc = hacc + p;
  }
  half s01 = hacc[0] + hacc[1];
  half s23 = hacc[2] + hacc[3];
  out[1] = float(half(s01 + s23));
}

/// half2 -> float2 and back: out gets (float) h, then the halves of (h as float) * f.
inline void conversions(const half *h, const float *f, float *wide, half *narrow, unsigned n) {
  for (unsigned i = 0; i < n / 2; ++i) {
    float2 x = __builtin_convertvector(reinterpret_cast<const half2 *>(h)[i], float2);
    reinterpret_cast<float2 *>(wide)[i] = x;
    float2 y = x * reinterpret_cast<const float2 *>(f)[i];
    reinterpret_cast<half2 *>(narrow)[i] = __builtin_convertvector(y, half2);
  }
}

/// Lane writes and reads: swaps the lanes of each float2 and half4 through element accesses,
/// overwrites lane `k % lanes` with s, and sums short4 lanes pairwise into ints.
inline void lanes(float *f, half *h, const short *s, int *sums, float value, unsigned k,
                  unsigned n) {
  float2 *f2 = reinterpret_cast<float2 *>(f);
  half4 *h4 = reinterpret_cast<half4 *>(h);
  const short4 *s4 = reinterpret_cast<const short4 *>(s);
  for (unsigned i = 0; i < n / 4; ++i) {
    float2 v = f2[i];
    float t = v[0];
    v[0] = v[1];
    v[1] = t;
    v[k % 2] = value;
    f2[i] = v;
    half4 w = h4[i];
    half4 r = w;
    r[0] = w[3];
    r[1] = w[2];
    r[2] = w[1];
    r[3] = w[0];
    r[k % 4] = half(value);
    h4[i] = r;
    short4 q = s4[i];
    sums[2 * i] = q[0] + q[1];
    sums[2 * i + 1] = q[2] - q[3];
  }
}

/// 32 float2 accumulators live through a loop, more than the tile's register pairs: some are
/// spilled and reloaded whole. acc[k] += a[i] * (k + 1), then out[k] = acc[k][0] - acc[k][1].
inline void manyAccumulators(const float *a, float *out, unsigned n) {
#define VECTORK_EACH(X)                                                                            \
  X(0)                                                                                             \
  X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17)     \
      X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)
#define VECTORK_DECLARE(k) float2 acc##k = {0.0f, 0.0f};
#define VECTORK_UPDATE(k)                                                                          \
  {                                                                                                \
    float2 scaled = x * float(k + 1);                                                              \
    acc##k = acc##k + scaled;                                                                      \
  }
#define VECTORK_STORE(k) out[k] = acc##k[0] - acc##k[1];
  VECTORK_EACH(VECTORK_DECLARE)
  for (unsigned i = 0; i < n / 2; ++i) {
    float2 x = reinterpret_cast<const float2 *>(a)[i];
    VECTORK_EACH(VECTORK_UPDATE)
  }
  VECTORK_EACH(VECTORK_STORE)
#undef VECTORK_EACH
#undef VECTORK_DECLARE
#undef VECTORK_UPDATE
#undef VECTORK_STORE
}

} // namespace vectork
