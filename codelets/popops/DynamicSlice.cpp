// Slicing vertices: dynamic slices and updates at one run-time offset (DynamicSlice*,
// DynamicUpdateSlice*) and multi-slices and updates at a list of run-time indices (MultiSlice,
// MultiUpdate, MultiUpdateAdd, MultiUpdateMax, MultiUpdateMul). Indices are read on the tile when
// the vertex runs; popops::slice::resolveIndex (SliceIndex.hpp) says what an out-of-range one
// means.
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

#include "RowCopy.hpp"
#include "SliceIndex.hpp"

using namespace poplar;

namespace popops {

using device::Compute;

namespace {

/// The first base row of a dynamic slice at `offset`, or n (numBaseElements & SIZE_MASK) if the
/// offset selects no row.
__attribute__((always_inline)) inline unsigned firstRow(unsigned offset, unsigned numBaseAndFlags) {
  return slice::resolveIndex(offset, 0, numBaseAndFlags);
}

} // namespace

/// subT row k = baseT row (offset + k) mod numBaseElements, rows of regionSize elements, the
/// columns split between the workers. An offset that selects no row writes zeros.
template <class T> class DynamicSlice1D : public MultiVertex {
public:
  Input<unsigned> offset;
  Input<Vector<T, VectorLayout::ONE_PTR, 4>> baseT;
  Output<Vector<T, VectorLayout::ONE_PTR, 4>> subT;
  const unsigned numBaseElements; // with the slice::REMAP_OUT_OF_BOUND / PADDING_INDEX flags
  const unsigned numSubElements;
  const unsigned regionSize;

  void compute(unsigned wid) {
    auto r = rowWorkerRange(wid, regionSize, sizeof(T));
    const Bits<T> *base = reinterpret_cast<const Bits<T> *>(&baseT[0]);
    Bits<T> *sub = reinterpret_cast<Bits<T> *>(&subT[0]);
    unsigned n = numBaseElements & slice::SIZE_MASK;
    unsigned row = firstRow(offset, numBaseElements);
    for (unsigned k = 0; k < numSubElements; ++k, sub += regionSize) {
      if (row == n) {
        zeroRow(sub, r.begin, r.end);
        continue;
      }
      copyRow(sub, base + row * regionSize, r.begin, r.end);
      if (++row == n)
        row = 0;
    }
  }
};

/// DynamicSlice1D over numRegions regions in one worker: baseT[r * numBaseElements + i] is row i
/// of region r, subT[r * numSubElements + k] its slice row k.
template <class T> class DynamicSlice2D : public Vertex {
public:
  Input<unsigned> offset;
  Vector<Input<Vector<T>>> baseT;
  Vector<Output<Vector<T>>> subT;
  const unsigned numBaseElements;
  const unsigned numSubElements;
  const unsigned numRegions;

  bool compute() {
    unsigned n = numBaseElements & slice::SIZE_MASK;
    unsigned first = firstRow(offset, numBaseElements);
    for (unsigned r = 0; r < numRegions; ++r) {
      unsigned row = first;
      for (unsigned k = 0; k < numSubElements; ++k) {
        auto &out = subT[r * numSubElements + k];
        Bits<T> *dst = reinterpret_cast<Bits<T> *>(&out[0]);
        if (row == n) {
          zeroRow(dst, 0, out.size());
          continue;
        }
        const Bits<T> *src = reinterpret_cast<const Bits<T> *>(&baseT[r * n + row][0]);
        copyRow(dst, src, 0, out.size());
        if (++row == n)
          row = 0;
      }
    }
    return true;
  }
};

/// baseT row (offset + k) mod numBaseElements = subT row k; an offset that selects no row
/// changes nothing.
template <class T> class DynamicUpdateSlice1D : public MultiVertex {
public:
  Input<unsigned> offset;
  InOut<Vector<T, VectorLayout::ONE_PTR, 4>> baseT;
  Input<Vector<T, VectorLayout::ONE_PTR, 4>> subT;
  const unsigned numBaseElements;
  const unsigned numSubElements;
  const unsigned regionSize;

  void compute(unsigned wid) {
    unsigned n = numBaseElements & slice::SIZE_MASK;
    unsigned row = firstRow(offset, numBaseElements);
    if (row == n)
      return;
    auto r = rowWorkerRange(wid, regionSize, sizeof(T));
    Bits<T> *base = reinterpret_cast<Bits<T> *>(&baseT[0]);
    const Bits<T> *sub = reinterpret_cast<const Bits<T> *>(&subT[0]);
    for (unsigned k = 0; k < numSubElements; ++k, sub += regionSize) {
      copyRow(base + row * regionSize, sub, r.begin, r.end);
      if (++row == n)
        row = 0;
    }
  }
};

template <class T> class DynamicUpdateSlice2D : public Vertex {
public:
  Input<unsigned> offset;
  Vector<InOut<Vector<T>>> baseT;
  Vector<Input<Vector<T>>> subT;
  const unsigned numBaseElements;
  const unsigned numSubElements;
  const unsigned numRegions;

  bool compute() {
    unsigned n = numBaseElements & slice::SIZE_MASK;
    unsigned first = firstRow(offset, numBaseElements);
    if (first == n)
      return true;
    for (unsigned r = 0; r < numRegions; ++r) {
      unsigned row = first;
      for (unsigned k = 0; k < numSubElements; ++k) {
        auto &in = subT[r * numSubElements + k];
        const Bits<T> *src = reinterpret_cast<const Bits<T> *>(&in[0]);
        Bits<T> *dst = reinterpret_cast<Bits<T> *>(&baseT[r * n + row][0]);
        copyRow(dst, src, 0, in.size());
        if (++row == n)
          row = 0;
      }
    }
    return true;
  }
};

/// subT row o = baseT row offsets[o] (rows of regionSize elements); an index that selects no row
/// gives a row of zeros. The workers split the indices (splitOffsets, when rows are whole 32-bit
/// words) or the columns.
template <class T> class MultiSlice : public MultiVertex {
public:
  Input<Vector<unsigned>> offsets;
  Input<Vector<T, VectorLayout::ONE_PTR, 4>> baseT;
  Output<Vector<T, VectorLayout::ONE_PTR, 4>> subT;
  const unsigned baseOffset;
  const unsigned numBaseElements; // with the slice::REMAP_OUT_OF_BOUND / PADDING_INDEX flags
  const unsigned regionSize;
  const bool splitOffsets;

  void compute(unsigned wid) {
    unsigned n = numBaseElements & slice::SIZE_MASK;
    unsigned oBegin = 0, oEnd = offsets.size(), cBegin = 0, cEnd = regionSize;
    if (splitOffsets) {
      auto r = device::workerRange(wid, offsets.size(), 8);
      oBegin = r.begin;
      oEnd = r.end;
    } else {
      auto r = rowWorkerRange(wid, regionSize, sizeof(T));
      cBegin = r.begin;
      cEnd = r.end;
    }
    const Bits<T> *base = reinterpret_cast<const Bits<T> *>(&baseT[0]);
    Bits<T> *sub = reinterpret_cast<Bits<T> *>(&subT[0]);
    for (unsigned o = oBegin; o < oEnd; ++o) {
      unsigned row = slice::resolveIndex(offsets[o], baseOffset, numBaseElements);
      Bits<T> *dst = sub + o * regionSize;
      if (row == n)
        zeroRow(dst, cBegin, cEnd);
      else
        copyRow(dst, base + row * regionSize, cBegin, cEnd);
    }
  }
};

/// baseT row offsets[o] = subT row o, in index order (a later duplicate wins); indices that
/// select no row are skipped. The workers split the columns.
template <class T> class MultiUpdate : public MultiVertex {
public:
  Input<Vector<unsigned>> offsets;
  InOut<Vector<T, VectorLayout::ONE_PTR, 4>> baseT;
  Input<Vector<T, VectorLayout::ONE_PTR, 4>> subT;
  const unsigned baseOffset;
  const unsigned numBaseElements;
  const unsigned regionSize;

  void compute(unsigned wid) {
    unsigned n = numBaseElements & slice::SIZE_MASK;
    auto r = rowWorkerRange(wid, regionSize, sizeof(T));
    Bits<T> *base = reinterpret_cast<Bits<T> *>(&baseT[0]);
    const Bits<T> *sub = reinterpret_cast<const Bits<T> *>(&subT[0]);
    for (unsigned o = 0; o < offsets.size(); ++o) {
      unsigned row = slice::resolveIndex(offsets[o], baseOffset, numBaseElements);
      if (row != n)
        copyRow(base + row * regionSize, sub + o * regionSize, r.begin, r.end);
    }
  }
};

namespace {

/// The combining updates: for each index that selects a row, in index order, dst = op(dst, src)
/// over worker `wid`'s columns of it (indices that select no row are skipped).
template <class T, class Offsets, class Op>
__attribute__((always_inline)) inline void
combineRows(const Offsets &offsets, T *base, const T *sub, unsigned baseOffset,
            unsigned numBaseAndFlags, unsigned regionSize, unsigned wid, const Op &op) {
  unsigned n = numBaseAndFlags & slice::SIZE_MASK;
  auto r = rowWorkerRange(wid, regionSize, sizeof(T));
  for (unsigned o = 0; o < offsets.size(); ++o) {
    unsigned row = slice::resolveIndex(offsets[o], baseOffset, numBaseAndFlags);
    if (row == n)
      continue;
    T *dst = base + row * regionSize;
    const T *src = sub + o * regionSize;
    for (unsigned e = r.begin; e < r.end; ++e)
      dst[e] = op(dst[e], src[e]);
  }
}

/// a + scale * b, in the compute type (float for half); the result stored after each index.
template <class T> struct ScaledAddOp {
  Compute<T> scale;
  Compute<T> operator()(T a, T b) const { return Compute<T>(a) + scale * Compute<T>(b); }
};
template <class T> struct MaxOp {
  T operator()(T a, T b) const { return Compute<T>(b) > Compute<T>(a) ? b : a; }
};
template <class T> struct MulOp {
  Compute<T> operator()(T a, T b) const { return Compute<T>(a) * Compute<T>(b); }
};

} // namespace

/// baseT row offsets[o] += scale * subT row o (see ScaledAddOp).
template <class T, class ScaleT> class MultiUpdateAdd : public MultiVertex {
public:
  Input<Vector<unsigned>> offsets;
  InOut<Vector<T, VectorLayout::ONE_PTR, 4>> baseT;
  Input<Vector<T, VectorLayout::ONE_PTR, 4>> subT;
  Input<Vector<ScaleT, VectorLayout::ONE_PTR>> scale;
  const unsigned baseOffset;
  const unsigned numBaseElements;
  const unsigned regionSize;

  void compute(unsigned wid) {
    ScaledAddOp<T> op{Compute<T>(Compute<ScaleT>(scale[0]))};
    combineRows(offsets, &baseT[0], &subT[0], baseOffset, numBaseElements, regionSize, wid, op);
  }
};

/// baseT row offsets[o] = max(itself, subT row o).
template <class T> class MultiUpdateMax : public MultiVertex {
public:
  Input<Vector<unsigned>> offsets;
  InOut<Vector<T, VectorLayout::ONE_PTR, 4>> baseT;
  Input<Vector<T, VectorLayout::ONE_PTR, 4>> subT;
  const unsigned baseOffset;
  const unsigned numBaseElements;
  const unsigned regionSize;

  void compute(unsigned wid) {
    combineRows(offsets, &baseT[0], &subT[0], baseOffset, numBaseElements, regionSize, wid,
                MaxOp<T>());
  }
};

/// baseT row offsets[o] *= subT row o, in the compute type (float for half).
template <class T> class MultiUpdateMul : public MultiVertex {
public:
  Input<Vector<unsigned>> offsets;
  InOut<Vector<T, VectorLayout::ONE_PTR, 4>> baseT;
  Input<Vector<T, VectorLayout::ONE_PTR, 4>> subT;
  const unsigned baseOffset;
  const unsigned numBaseElements;
  const unsigned regionSize;

  void compute(unsigned wid) {
    combineRows(offsets, &baseT[0], &subT[0], baseOffset, numBaseElements, regionSize, wid,
                MulOp<T>());
  }
};

} // namespace popops

#define POPOPS_FAMILY_DynamicSlice
#include "Instantiate.hpp"
