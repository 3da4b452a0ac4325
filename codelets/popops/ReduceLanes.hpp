// The reduction vertices' inner folds in two float lanes (codelets/popops/Reduce.cpp): float and
// half partials of the ops with `lanes` (ADD, SQUARE_ADD, MAX, MIN) are read a pair at a time
// (float: one aligned 64-bit load; half: one 32-bit load of a half2 widened to float2) into
// float2 accumulators, with scalar steps for a misaligned start and the odd tail.
#pragma once

#include <poplar/HalfFloat.hpp>
#include <popops/ElementwiseDevice.hpp>

namespace popops {
namespace lanes {

using device::Compute;
using device::IsSame;

#define POPOPS_LANES_INLINE __attribute__((always_inline)) inline

/// Whether (ReduceOp, P) folds in float2 lanes.
template <class ReduceOp, class P> constexpr bool inLanes() {
  return ReduceOp::lanes && (IsSame<P, float>::value || IsSame<P, half>::value);
}

/// The bytes of one pair of P: its load's alignment.
template <class P> constexpr unsigned pairBytes() { return 2 * sizeof(P); }

template <class P> POPOPS_LANES_INLINE bool pairAligned(const P *p) {
  return (reinterpret_cast<unsigned>(p) & (pairBytes<P>() - 1)) == 0;
}

/// Elements p[0], p[1] as float lanes; p is pair-aligned.
POPOPS_LANES_INLINE float2 pairAt(const float *p) { return *reinterpret_cast<const float2 *>(p); }
POPOPS_LANES_INLINE float2 pairAt(const half *p) {
  // A 32-bit load of a half2: popc moves a half4's lanes one by one.
  return __builtin_convertvector(*reinterpret_cast<const half2 *>(p), float2);
}

/// acc folded with the n contiguous partials at src. Two float2 accumulators take four
/// elements a step; they and the scalar steps are combined at the end, so additions happen in
/// four interleaved lanes (as PopLibs' vector reductions add), not in the order of the elements.
template <class ReduceOp, class P>
POPOPS_LANES_INLINE Compute<P> foldRun(Compute<P> acc, const P *src, unsigned n) {
  using A = Compute<P>;
  // A misaligned start: one scalar step reaches the pair boundary (a P is aligned to itself).
  if (n && !pairAligned(src)) {
    acc = ReduceOp::update(acc, A(*src++));
    --n;
  }
  const A id = ReduceOp::template init<A>();
  float2 a0 = {id, id}, a1 = a0;
  const unsigned quads = n / 4;
  // A moving pointer, not an index: two loads and two ops a step, no address arithmetic.
  for (unsigned k = 0; k < quads; ++k, src += 4) {
    a0 = ReduceOp::updateLanes(a0, pairAt(src));
    a1 = ReduceOp::updateLanes(a1, pairAt(src + 2));
  }
  for (unsigned i = 0; i < n % 4; ++i)
    acc = ReduceOp::update(acc, A(src[i]));
  acc = ReduceOp::combine(acc, ReduceOp::combine(a0.x, a1.x));
  return ReduceOp::combine(acc, ReduceOp::combine(a0.y, a1.y));
}

/// Writes the 8 outputs of a block to a pair-aligned dst, two a step: float2 stores (st64),
/// half2 conversions (f32v2tof16v2, rounding to nearest even as a scalar store does) for half.
POPOPS_LANES_INLINE void storeAlignedBlock(float *dst, const float2 *a) {
  for (unsigned i = 0; i < 4; ++i)
    reinterpret_cast<float2 *>(dst)[i] = a[i];
}
POPOPS_LANES_INLINE void storeAlignedBlock(half *dst, const float2 *a) {
  for (unsigned i = 0; i < 4; ++i)
    reinterpret_cast<half2 *>(dst)[i] = __builtin_convertvector(a[i], half2);
}

/// Writes the 8 outputs of a block, two a step: storeAlignedBlock where dst is aligned.
POPOPS_LANES_INLINE void storeBlock(float *dst, const float2 *a) {
  if (pairAligned(dst)) {
    storeAlignedBlock(dst, a);
    return;
  }
  for (unsigned i = 0; i < 4; ++i) {
    dst[2 * i] = a[i].x;
    dst[2 * i + 1] = a[i].y;
  }
}
POPOPS_LANES_INLINE void storeBlock(half *dst, const float2 *a) {
  if (pairAligned(dst)) {
    storeAlignedBlock(dst, a);
    return;
  }
  for (unsigned i = 0; i < 4; ++i) {
    dst[2 * i] = half(a[i].x);
    dst[2 * i + 1] = half(a[i].y);
  }
}

/// The outputs [0, blocks * 8) of a region `width` wide from partial regions [first, end) (Span:
/// data, size), each whole rows, a block of 8 outputs at a time: four float2 accumulators, one
/// per pair of outputs, in registers across the regions, then store(c, accumulators) for the
/// block at output c. Each output still folds its rows in order, as the scalar loop does. A
/// region whose rows are not all pair-aligned builds its pairs from scalar loads.
template <class ReduceOp, class P, class Span, class Store>
POPOPS_LANES_INLINE void foldBlocks(const Span *partials, unsigned first, unsigned end,
                                    unsigned width, unsigned blocks, Store store) {
  using A = Compute<P>;
  const A id = ReduceOp::template init<A>();
  const bool rowsAligned = (width * sizeof(P)) % pairBytes<P>() == 0;
  for (unsigned b = 0, c = 0; b < blocks; ++b, c += 8) {
    float2 a[4];
    for (unsigned i = 0; i < 4; ++i)
      a[i] = float2{id, id};
    for (unsigned p = first; p < end; ++p) {
      const P *row = partials[p].data + c;
      const P *last = partials[p].data + partials[p].size;
      if (rowsAligned && pairAligned(row)) {
        for (; row < last; row += width)
          for (unsigned i = 0; i < 4; ++i)
            a[i] = ReduceOp::updateLanes(a[i], pairAt(row + 2 * i));
      } else {
        for (; row < last; row += width)
          for (unsigned i = 0; i < 4; ++i)
            a[i] = ReduceOp::updateLanes(a[i], float2{A(row[2 * i]), A(row[2 * i + 1])});
      }
    }
    store(c, a);
  }
}

/// How the partial regions of an output region lie: each one row of the region, and then
/// whether every row is pair-aligned; or not all single rows.
enum class Rows { Single, SingleAligned, General };

/// The Rows of partial regions [first, end) of a region `width` wide: single rows are the partial
/// results of an output region gathered from many tiles or workers, or a multi-row piece cut by
/// outputs between workers (ReduceWork.cpp).
template <class P, class Span>
POPOPS_LANES_INLINE Rows rowsOf(const Span *partials, unsigned first, unsigned end,
                                unsigned width) {
  // Or-ed differences, not flags and branches: a few instructions a region.
  unsigned sizes = 0, addresses = 0;
  for (unsigned p = first; p < end; ++p) {
    sizes |= partials[p].size ^ width;
    addresses |= reinterpret_cast<unsigned>(partials[p].data);
  }
  if (sizes != 0)
    return Rows::General;
  return (addresses & (pairBytes<P>() - 1)) == 0 ? Rows::SingleAligned : Rows::Single;
}

/// foldBlocks when every partial region is one row (rowsOf): a block reads each with one pointer
/// load, its pairs with one load each when every row is aligned, else element by element.
/// foldBlocks' set-up per region and block (the row bounds and alignment) costs about three
/// times the row's own loads and adds.
template <class ReduceOp, class P, bool aligned, class Span, class Store>
POPOPS_LANES_INLINE void foldSingleRowBlocks(const Span *partials, unsigned first, unsigned end,
                                             unsigned blocks, Store store) {
  using A = Compute<P>;
  const A id = ReduceOp::template init<A>();
  for (unsigned b = 0, c = 0; b < blocks; ++b, c += 8) {
    float2 a[4];
    for (unsigned i = 0; i < 4; ++i)
      a[i] = float2{id, id};
    const Span *s = partials + first;
    for (unsigned n = end - first; n != 0; --n, ++s) {
      const P *row = s->data + c;
      for (unsigned i = 0; i < 4; ++i)
        a[i] = ReduceOp::updateLanes(a[i], aligned ? pairAt(row + 2 * i)
                                                   : float2{A(row[2 * i]), A(row[2 * i + 1])});
    }
    store(c, a);
  }
}

#undef POPOPS_LANES_INLINE

} // namespace lanes
} // namespace popops
