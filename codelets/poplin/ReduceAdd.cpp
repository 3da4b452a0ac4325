// The reduction that follows a matmul or convolution split over input channels: the sum of
// the partials each tile computed, out[i] = sum_p partials[p][i].
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

using namespace poplar;

namespace poplin {

namespace {

// Every element is summed in float, partial 0 first, then 1, 2, ...: the order of a scalar
// loop, so the vector paths give the same bits; a half result rounds once, at the end.
// Lanes<T>::quad(p, i, acc, add) sets or adds to acc[0..1] elements 4i..4i+3 of p (float: two
// 64-bit loads; half: two 32-bit loads, each converted to a float2), pair() gives two.
template <class T> struct Lanes;

template <> struct Lanes<float> {
  __attribute__((always_inline)) static void quad(const float *p, unsigned i, float2 *acc,
                                                  bool add) {
    const float2 *q = reinterpret_cast<const float2 *>(p) + 2 * i;
    acc[0] = add ? acc[0] + q[0] : q[0];
    acc[1] = add ? acc[1] + q[1] : q[1];
  }
  __attribute__((always_inline)) static float2 pair(const float *p) {
    return *reinterpret_cast<const float2 *>(p);
  }
};

template <> struct Lanes<half> {
  __attribute__((always_inline)) static void quad(const half *p, unsigned i, float2 *acc,
                                                  bool add) {
    // Two 32-bit loads of a half2 each: popc moves a half4's swizzles lane by lane.
    const half2 *q = reinterpret_cast<const half2 *>(p) + 2 * i;
    const float2 lo = __builtin_convertvector(q[0], float2);
    const float2 hi = __builtin_convertvector(q[1], float2);
    acc[0] = add ? acc[0] + lo : lo;
    acc[1] = add ? acc[1] + hi : hi;
  }
  __attribute__((always_inline)) static float2 pair(const half *p) {
    return __builtin_convertvector(*reinterpret_cast<const half2 *>(p), float2);
  }
};

// Writes a float2 accumulator as two outputs.
__attribute__((always_inline)) inline void store(float *o, float2 v) {
  *reinterpret_cast<float2 *>(o) = v;
}
__attribute__((always_inline)) inline void store(half *o, float2 v) {
  *reinterpret_cast<half2 *>(o) = __builtin_convertvector(v, half2);
}

/// Sums `quads` x 4 elements from element `b` of every partial in float2 accumulators (held in
/// registers across the partials: each partial's pointer costs once per block) and writes them.
template <unsigned quads, class OutType, class PartialsType, class Partials>
__attribute__((always_inline)) inline void sumBlock(const Partials &partials, unsigned numPartials,
                                                    OutType *o, unsigned b) {
  float2 acc[2 * quads];
  for (unsigned i = 0; i < quads; ++i)
    Lanes<PartialsType>::quad(&partials[0][b], i, &acc[2 * i], false);
  if (numPartials > 1) {
    // The next partial's pointer is loaded after this one's adds, so the last add issues
    // beside that load; the last partial's beside the first store.
    const PartialsType *q = &partials[1][b];
    for (unsigned p = 2; p < numPartials; ++p) {
      for (unsigned i = 0; i < quads; ++i)
        Lanes<PartialsType>::quad(q, i, &acc[2 * i], true);
      q = &partials[p][0] + b;
    }
    for (unsigned i = 0; i < quads; ++i)
      Lanes<PartialsType>::quad(q, i, &acc[2 * i], true);
  }
  for (unsigned i = 0; i < 2 * quads; ++i)
    store(o + 2 * i, acc[i]);
}

} // namespace

template <class OutType, class PartialsType> class ReduceAdd : public MultiVertex {
public:
  Vector<Input<Vector<PartialsType, VectorLayout::ONE_PTR, 8>>> partials;
  Output<Vector<OutType, VectorLayout::SPAN, 8>> out;

  void compute(unsigned wid) {
    // Worker ranges start on 8-byte grains of the output, so every block, quad and pair below
    // is aligned for its 64- or 32-bit accesses (the partials are 8-byte aligned too).
    const unsigned n = out.size();
    auto r = popops::device::workerRange(wid, n, sizeof(OutType));
    // A worker's share rounded up to whole blocks of 32 outputs, where the first five then still
    // leave the last some: a block costs about 6 thread cycles an output, the pieces that end a
    // share up to 15 (the planner's 752-output chunks of 8 partials: 126 a worker, 966 cycles;
    // 128: 837).
    const unsigned share = (r.share + 31) / 32 * 32;
    if (5 * share < n) {
      r.begin = wid * share;
      r.end = r.begin + share < n ? r.begin + share : n;
    }
    const unsigned numPartials = partials.size();
    OutType *o = &out[0];
    unsigned b = r.begin;
    // Blocks of 32 elements (16 register pairs of accumulators) amortise each partial's pointer
    // load over sixteen 64-bit loads; then at most one block of each of 16, 8 and 4.
    for (; b + 32 <= r.end; b += 32)
      sumBlock<8, OutType, PartialsType>(partials, numPartials, o + b, b);
    if (b + 16 <= r.end) {
      sumBlock<4, OutType, PartialsType>(partials, numPartials, o + b, b);
      b += 16;
    }
    if (b + 8 <= r.end) {
      sumBlock<2, OutType, PartialsType>(partials, numPartials, o + b, b);
      b += 8;
    }
    if (b + 4 <= r.end) {
      sumBlock<1, OutType, PartialsType>(partials, numPartials, o + b, b);
      b += 4;
    }
    // The rest: a pair, then the odd last element of the output.
    if (b + 2 <= r.end) {
      float2 a = Lanes<PartialsType>::pair(&partials[0][b]);
      for (unsigned p = 1; p < numPartials; ++p)
        a += Lanes<PartialsType>::pair(&partials[p][b]);
      store(o + b, a);
      b += 2;
    }
    if (b < r.end) {
      float a = float(partials[0][b]);
      for (unsigned p = 1; p < numPartials; ++p)
        a += float(partials[p][b]);
      o[b] = OutType(a);
    }
  }
};

} // namespace poplin

#define POPLIN_FAMILY_ReduceAdd
#include "Instantiate.hpp"
